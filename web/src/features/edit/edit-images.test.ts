import { describe, expect, it } from 'vitest';
import type { Media } from '@schlosstreffen/shared/api';
import { deriveEditImages, mediaUpdates, NO_IMAGE_CHANGES } from './edit-images';

const media = (id: string, isHero: boolean, crop: Partial<Media> = {}) =>
  ({
    id,
    type: 'image',
    url: `/objects/${id}.jpg`,
    thumbnails: null,
    isHero,
    cropX: '50.00',
    cropY: '50.00',
    scale: '100.00',
    rejectionReason: null,
    ...crop,
  }) as Media;

const upload = (id: string) => ({
  id,
  name: `${id}.jpg`,
  size: 1,
  type: 'image/jpeg',
  objectPath: `/objects/uploads/${id}.jpg`,
  previewUrl: undefined,
});

describe('edit images', () => {
  it('keeps the saved main image and adds new uploads after it', () => {
    const images = deriveEditImages([media('a', false), media('b', true)], [upload('n')], NO_IMAGE_CHANGES);
    expect(images.map((image) => [image.id, image.kind, image.isHero])).toEqual([
      ['a', 'existing', false],
      ['b', 'existing', true],
      ['n', 'new', false],
    ]);
  });

  it('makes the first image main only when none is', () => {
    expect(deriveEditImages([], [upload('n1'), upload('n2')], NO_IMAGE_CHANGES).map((i) => i.isHero)).toEqual(
      [true, false],
    );
    const afterRemoval = deriveEditImages([media('a', true), media('b', false)], [], {
      ...NO_IMAGE_CHANGES,
      removed: ['a'],
    });
    expect(afterRemoval.map((i) => [i.id, i.isHero])).toEqual([['b', true]]);
  });

  it('lists only changed framing and main flags, and new images by their media id', () => {
    const saved = [media('a', true), media('b', false)];
    const images = deriveEditImages(saved, [upload('n')], {
      removed: [],
      framing: {
        b: { cropX: '10.00', cropY: '50.00', scale: '100.00' },
        n: { cropX: '50.00', cropY: '50.00', scale: '150.00' },
      },
      heroId: 'n',
    });
    expect(mediaUpdates(images, saved, new Map([['n', 'm-n']]), false)).toEqual([
      { id: 'a', isHero: false, cropX: '50.00', cropY: '50.00', scale: '100.00' },
      { id: 'b', isHero: false, cropX: '10.00', cropY: '50.00', scale: '100.00' },
      { id: 'm-n', isHero: true, cropX: '50.00', cropY: '50.00', scale: '150.00' },
    ]);
    const untouched = deriveEditImages(saved, [], NO_IMAGE_CHANGES);
    expect(mediaUpdates(untouched, saved, new Map(), false)).toEqual([]);
  });
});
