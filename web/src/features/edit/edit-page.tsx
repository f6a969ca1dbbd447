import { useForm, useStore } from '@tanstack/react-form';
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import {
  brandAndModel,
  driveTypeLabel,
  MAX_IMAGES_PER_VEHICLE,
  STATUS_BADGE_CLASSES,
  STATUS_LABELS,
  VEHICLE_MESSAGES,
  WIZARD_STEPS_EDIT,
} from '@schlosstreffen/shared';
import { useMemo, useRef, useState } from 'react';
import { Button, buttonClass } from '../../components/ui/button';
import { CloseLink, PageCard } from '../../components/ui/page-card';
import { errorText, notify, RETRY_HINT } from '../../components/ui/toaster';
import { isApiError } from '../../lib/api';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { siteVehicleSchemas } from '../../lib/vehicle-schemas';
import {
  BasicDataFields,
  FormStepNav,
  PerformanceFields,
  StepHeading,
  StepProgress,
  useFormSteps,
} from '../vehicle-form/vehicle-fields';
import {
  EDIT_STEPS,
  editBody,
  editDefaultValues,
  parseDecimal,
  stepFields,
  type EditFormValues,
} from '../vehicle-form/vehicle-form-values';
import { ImageCropEditor } from '../media/image-crop-editor';
import { ImageUploadField } from '../media/image-upload-field';
import { useImageUploader } from '../media/use-image-uploader';
import { QuartettCard } from '../vehicles/quartett-card';
import { invalidateVehicles, vehicleQueryOptions } from '../vehicles/vehicle-queries';
import {
  changesFromImages,
  cropChanged,
  deriveEditImages,
  imagesOf,
  mediaSrc,
  NO_IMAGE_CHANGES,
  type EditImage,
  type EditImageChanges,
} from './edit-images';
import { saveVehicle } from './save-vehicle';

const EDIT_TEXTS = {
  title: 'Fahrzeug bearbeiten',
  save: 'Speichern',
  saving: 'Speichern...',
  successTitle: 'Fahrzeug aktualisiert!',
  success: 'Ihre Änderungen wurden gespeichert.',
  errorTitle: 'Aktualisierung fehlgeschlagen',
  errorFallback: RETRY_HINT,
  notFound: VEHICLE_MESSAGES.vehicleNotFound,
  cropWarning:
    'Der Bildausschnitt des Hauptbilds wurde geändert. Speichere deine Änderungen, damit er auf der Quartett-Karte übernommen wird.',
  uploading: 'Bitte warte, bis alle Bilder hochgeladen sind.',
} as const;

const LAST_STEP = WIZARD_STEPS_EDIT;
const route = getRouteApi('/edit/$id');

/** /edit/{id}: the vehicle loaded by the route's loader, edited in three steps. */
export function EditPage() {
  const { found } = route.useLoaderData();
  return found ? <LoadedEditPage /> : <VehicleNotFound />;
}

function LoadedEditPage() {
  const { id } = route.useParams();
  const { data: vehicle } = useSuspenseQuery(vehicleQueryOptions(id));
  return <EditVehicleForm key={vehicle.id} vehicle={vehicle} />;
}

function VehicleNotFound() {
  return (
    <PageCard
      title={EDIT_TEXTS.notFound}
      description="Dieses Fahrzeug gibt es nicht (mehr), oder es gehört zu einem anderen Konto."
      closeTo="/dashboard"
    >
      <Link to="/dashboard" className={buttonClass('primary', 'w-full')}>
        Zu meinen Fahrzeugen
      </Link>
    </PageCard>
  );
}

/** The route's error state for failures other than a missing vehicle: the message and a retry. */
export function EditPageError({ error }: ErrorComponentProps) {
  const router = useRouter();
  if (isApiError(error) && error.status === 404) return <VehicleNotFound />;
  return (
    <PageCard
      title="Fahrzeug konnte nicht geladen werden"
      description={errorText(error) ?? 'Bitte prüfe deine Verbindung und versuche es erneut.'}
      closeTo="/dashboard"
    >
      <Button className="w-full" onClick={() => void router.invalidate()}>
        Erneut versuchen
      </Button>
    </PageCard>
  );
}

function EditVehicleForm({ vehicle }: { vehicle: Vehicle }) {
  // The configured edition's schema (the year runs up to the event's year).
  const { VehicleEditSchema } = siteVehicleSchemas();
  const E = VehicleEditSchema.entries;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { step, goTo, ids, focusFirstInvalid, goToFirstInvalidStep, submitStep } = useFormSteps(
    'edit',
    LAST_STEP,
  );
  const [changes, setChanges] = useState<EditImageChanges>(NO_IMAGE_CHANGES);
  const defaultValues = useMemo(() => editDefaultValues(vehicle), [vehicle]);
  const attachedUploads = useRef<string[]>([]);

  const keptCount = imagesOf(vehicle.media).filter((item) => !changes.removed.includes(item.id)).length;
  const uploader = useImageUploader({
    existingCount: keptCount,
    onRemoved: (id) =>
      setChanges((current) => {
        const { [id]: _removed, ...framing } = current.framing;
        return { ...current, framing, heroId: current.heroId === id ? null : current.heroId };
      }),
  });
  const images = useMemo(
    () => deriveEditImages(vehicle.media, uploader.uploaded, changes),
    [vehicle.media, uploader.uploaded, changes],
  );
  const queued = imagesOf(vehicle.media).filter((item) => changes.removed.includes(item.id));
  const savedImageLabel = (mediaId: string) =>
    `Gespeichertes Bild ${imagesOf(vehicle.media).findIndex((item) => item.id === mediaId) + 1}`;

  const save = useMutation({ mutationFn: saveVehicle });

  const form = useForm({
    defaultValues,
    validators: { onSubmit: VehicleEditSchema },
    onSubmitInvalid: ({ value }) => goToFirstInvalidStep(VehicleEditSchema, value),
    onSubmit: async ({ value }) => {
      attachedUploads.current = [];
      try {
        await save.mutateAsync({
          vehicle,
          body: editBody(value, defaultValues),
          removed: changes.removed,
          images,
          onAttached: (uploadId) => attachedUploads.current.push(uploadId),
        });
        void invalidateVehicles(queryClient);
        notify.success(EDIT_TEXTS.successTitle, EDIT_TEXTS.success);
        await navigate({ to: '/dashboard' });
      } catch (error) {
        notify.error(EDIT_TEXTS.errorTitle, error, EDIT_TEXTS.errorFallback);
        // What went out is saved: attached uploads now come back as the vehicle's media.
        for (const uploadId of attachedUploads.current) uploader.cancel(uploadId);
        void invalidateVehicles(queryClient);
      }
    },
  });
  const saving = useStore(form.store, (state) => state.isSubmitting) || save.isPending;
  const values = useStore(form.store, (state) => state.values);

  async function next() {
    const fields = stepFields(step) as (keyof EditFormValues)[];
    await Promise.all(fields.map((name) => form.validateField(name, 'change')));
    const valid = fields.every((name) => (form.getFieldMeta(name)?.errors.length ?? 0) === 0);
    if (valid) {
      goTo(step + 1);
      return;
    }
    focusFirstInvalid();
  }

  const onSubmit = submitStep({ busy: saving, next, submit: () => form.handleSubmit() });

  const removeImage = (image: EditImage) => {
    if (image.kind === 'new') uploader.cancel(image.id);
    else setChanges((current) => ({ ...current, removed: [...current.removed, image.id] }));
  };
  const restoreImage = (mediaId: string) =>
    setChanges((current) => ({ ...current, removed: current.removed.filter((id) => id !== mediaId) }));

  const hero = images.find((image) => image.isHero);
  const title = brandAndModel({ brand: values.brand ?? '', model: values.model ?? '' });
  const cardName = values.name?.trim();

  return (
    <section className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6 sm:py-14">
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_20rem] xl:gap-12">
        <div className="min-w-0 rounded-2xl border border-white/10 bg-night-900/80 p-6 shadow-2xl shadow-black/40 backdrop-blur sm:p-8">
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0">
              <h1 className="font-display text-3xl text-parchment">{EDIT_TEXTS.title}</h1>
              <p className="mt-2 truncate text-sm text-ash-300">{vehicle.name || vehicle.title}</p>
            </div>
            <CloseLink to="/dashboard" />
          </div>

          <div id={ids.progress} className="mt-6 scroll-mt-28">
            <StepProgress step={step} steps={EDIT_STEPS} />
          </div>

          <form
            id={ids.form}
            noValidate
            aria-labelledby={ids.heading}
            onSubmit={onSubmit}
            className="mt-8 flex flex-col gap-6"
          >
            <StepHeading id={ids.heading}>{EDIT_STEPS[step - 1]}</StepHeading>

            {step === 1 ? <BasicDataFields form={form} schema={E} variant="edit" /> : null}

            {step === 2 ? <PerformanceFields form={form} schema={E} variant="edit" /> : null}

            {step === 3 ? (
              <div className="flex flex-col gap-5">
                <p className="-mt-3 text-sm text-ash-300">
                  Entfernte Bilder werden erst beim Speichern gelöscht. Neue Bilder fügst du einzeln hinzu.
                </p>
                <ImageUploadField uploader={uploader} multiple={false} label="Bild hinzufügen" />
                <p className="text-sm text-ash-400" aria-live="polite">
                  {images.length} von {MAX_IMAGES_PER_VEHICLE} Bildern
                </p>
                {images.length > 0 ? (
                  <ImageCropEditor
                    images={images}
                    disabled={saving}
                    onChange={(next) => setChanges((current) => changesFromImages(next, current.removed))}
                    onRemove={removeImage}
                    renderExtra={(image) => (
                      <ImageNotes
                        image={image}
                        showCropWarning={image.isHero && cropChanged(image, vehicle.media)}
                      />
                    )}
                  />
                ) : (
                  <p className="rounded-xl border border-dashed border-white/15 px-4 py-6 text-center text-sm text-ash-400">
                    Noch keine Bilder. Lade mindestens drei aussagekräftige Fotos hoch.
                  </p>
                )}
                {queued.length > 0 ? (
                  <section
                    aria-labelledby="queued-heading"
                    className="rounded-xl border border-red-400/30 bg-red-950/20 p-4"
                  >
                    <h3 id="queued-heading" className="text-sm font-semibold text-red-100">
                      Zum Löschen vorgemerkt ({queued.length})
                    </h3>
                    <p className="mt-1 text-xs text-red-100/90">
                      Diese Bilder werden beim Speichern gelöscht.
                    </p>
                    <ul className="mt-3 flex flex-col gap-2">
                      {queued.map((item) => (
                        <li key={item.id} className="flex items-center gap-3">
                          <img
                            src={mediaSrc(item)}
                            alt=""
                            className="size-12 shrink-0 rounded-lg object-cover opacity-60"
                          />
                          <span className="min-w-0 flex-1 truncate text-sm text-ash-300">
                            {savedImageLabel(item.id)}
                          </span>
                          <Button
                            variant="ghost"
                            className="px-3 py-1.5 text-xs"
                            onClick={() => restoreImage(item.id)}
                            aria-label={`Löschen rückgängig: ${savedImageLabel(item.id)}`}
                          >
                            Rückgängig
                          </Button>
                        </li>
                      ))}
                    </ul>
                  </section>
                ) : null}
              </div>
            ) : null}

            <FormStepNav
              step={step}
              lastStep={LAST_STEP}
              busy={saving}
              uploading={uploader.isUploading}
              uploadingNote={uploader.isUploading && step === LAST_STEP ? EDIT_TEXTS.uploading : null}
              submitLabel={EDIT_TEXTS.save}
              busyLabel={EDIT_TEXTS.saving}
              onBack={() => goTo(step - 1)}
            />
          </form>
        </div>

        <aside aria-labelledby="card-preview-heading" className="flex flex-col gap-3 lg:sticky lg:top-28">
          <div>
            <h2 id="card-preview-heading" className="font-display text-xl text-parchment">
              Deine Quartett-Karte
            </h2>
            <p className="mt-1 text-sm text-ash-400">Live-Vorschau deiner Eingaben.</p>
          </div>
          <QuartettCard
            className="mx-auto lg:mx-0"
            title={cardName || title || 'Dein Fahrzeug'}
            subline={[cardName ? title : null, values.year ? String(values.year) : null, values.color?.trim()]
              .filter(Boolean)
              .join(' · ')}
            image={
              hero?.src ? { url: hero.src, cropX: hero.cropX, cropY: hero.cropY, scale: hero.scale } : null
            }
            badge={{ label: STATUS_LABELS[vehicle.status], className: STATUS_BADGE_CLASSES[vehicle.status] }}
            values={{
              ps: values.ps,
              torqueNm: values.torqueNm,
              zeroToHundredS: parseDecimal(values.zeroToHundredS),
              topSpeedKmh: values.topSpeedKmh,
              cylinders: values.cylinders,
              weightKg: values.weightKg,
            }}
            driveTypeLabel={driveTypeLabel(values.driveType)}
          />
        </aside>
      </div>
    </section>
  );
}

/** Under an image in the editor: not yet saved, refused by the worker, main-image crop warning. */
function ImageNotes({ image, showCropWarning }: { image: EditImage; showCropWarning: boolean }) {
  return (
    <>
      {image.kind === 'new' ? (
        <p className="text-xs text-gold-200">Neu – wird beim Speichern hinzugefügt.</p>
      ) : null}
      {image.rejectionReason ? <p className="text-xs text-red-300">{image.rejectionReason}</p> : null}
      {showCropWarning ? (
        <p
          role="status"
          className="rounded-lg border border-gold-500/40 bg-gold-500/10 px-3 py-2 text-xs text-gold-200"
        >
          {EDIT_TEXTS.cropWarning}
        </p>
      ) : null}
    </>
  );
}
