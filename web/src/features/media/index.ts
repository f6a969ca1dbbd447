/**
 * Vehicle images: upload (Uppy to S3), hero choice and framing. Used by /apply and /edit/{id}.
 *
 * - `heroOf(media)`: the media marked isHero, else the first.
 * - `cropStyle(cropX, cropY, scale)`: CSS for an `<img>` filling a box with overflow hidden
 *   (object-position in %, transform scale); values are clamped (x/y 0–100, zoom 100–200, step 1)
 *   and may be numbers or the API's text ("50.00").
 * - `useImageUploader(options)`: one Uppy instance; `addFiles`, per-file progress, `pauseResume`,
 *   `cancel`, `retry`; finished files carry `objectPath` (/objects/{key}) for POST …/media.
 * - `ImageUploadField`: the picker (real `<input type="file" accept="image/*">` labelled
 *   'Bilder auswählen'), drop zone, German notices and progress of unfinished uploads.
 * - `ImageCropEditor`: per image 'Hauptbild' (one per list), x/y/zoom sliders with a live preview,
 *   reset to 50/50/100; controlled through `onChange(images)`.
 */
export * from './crop';
export * from './image-crop-editor';
export * from './image-upload-field';
export * from './use-image-uploader';
