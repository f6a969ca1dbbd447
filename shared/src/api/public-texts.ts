import type { PublicTexts } from '../text-format.js';

/** GET/PUT /api/admin/texts: an edition's public texts (null: the default text) and their last change. */
export interface PublicTextsView {
  edition: {
    year: number;
    /** `YYYY-MM-DD`: the default FAQ names its month. */
    applicationDeadline: string;
  };
  texts: PublicTexts;
  /** The last change: when and by whom (their name now; 'Gelöschtes Konto' once gone); null: never. */
  updatedAt: string | null;
  updatedBy: string | null;
}
