import { useForm, useStore } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  APPLICATION_STEP_SCHEMAS,
  ApplicationFormSchema,
  MAX_IMAGES_PER_VEHICLE,
  VEHICLE_LIMITS,
  VEHICLE_TEXT_MAX,
  WIZARD_STEPS_CREATE,
} from '@schlosstreffen/shared';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { fieldError, TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { SelectField } from '../../components/ui/select';
import { TextAreaField } from '../../components/ui/textarea';
import { Spinner } from '../../components/ui/spinner';
import { notify } from '../../components/ui/toaster';
import { getSiteConfig } from '../../lib/site-config';
import { useDocumentMeta } from '../../lib/use-document-meta';
import { eventFacts } from '../landing/event-format';
import { DEFAULT_CROP, ensureHero, type CropValues } from '../media/crop';
import { ImageCropEditor, type CropImage } from '../media/image-crop-editor';
import { ImageUploadField } from '../media/image-upload-field';
import { UPLOAD_TEXTS, useImageUploader } from '../media/use-image-uploader';
import { invalidateVehicles } from '../vehicles/vehicle-queries';
import { submitApplication } from './submit-application';
import {
  fieldGridClass,
  NumberField,
  StepHeading,
  StepProgress,
  TuningCategoriesField,
} from './vehicle-fields';
import {
  CREATE_STEPS,
  createDefaultValues,
  DRIVE_OPTIONS_CREATE,
  FUEL_OPTIONS,
  stepFields,
  stepOfFirstIssue,
  vehicleTitle,
  type ApplyFormValues,
} from './vehicle-form-values';

export const APPLY_TEXTS = {
  title: 'Fahrzeug anmelden',
  submit: 'Bewerbung einreichen',
  submitting: 'Wird eingereicht...',
  successTitle: 'Bewerbung eingereicht!',
  success: 'Ihr Fahrzeug wurde zur Prüfung eingereicht.',
  errorTitle: 'Einreichung fehlgeschlagen',
  errorFallback: 'Bitte versuche es erneut.',
  uploading: 'Bitte warte, bis alle Bilder hochgeladen sind.',
} as const;

const S = ApplicationFormSchema.entries;
const LAST_STEP = WIZARD_STEPS_CREATE;

interface WizardImage extends CropImage {
  objectPath: string;
}

/** /apply: the four-step application wizard (spec sections 2, 4, 5, 7). */
export function ApplyPage() {
  const event = eventFacts(getSiteConfig());
  useDocumentMeta(
    `Fahrzeug anmelden – ${event.name}`,
    `Bewirb dich mit deinem getunten Fahrzeug für das ${event.name} am ${event.shortDate}: technische Daten, Fotos und Einwilligungen in vier Schritten.`,
    '/apply',
  );
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState(1);
  const [framing, setFraming] = useState<Record<string, CropValues>>({});
  const [heroId, setHeroId] = useState<string | null>(null);
  const [defaultValues] = useState(createDefaultValues);

  const uploader = useImageUploader({
    onRemoved: (id) =>
      setFraming((current) => {
        const { [id]: _removed, ...rest } = current;
        return rest;
      }),
  });

  // The first uploaded image is the main image until another one is chosen.
  const images = useMemo<WizardImage[]>(() => {
    const list = uploader.uploaded.map((file) => ({
      id: file.id,
      src: file.previewUrl,
      name: file.name,
      objectPath: file.objectPath,
      isHero: file.id === heroId,
      ...(framing[file.id] ?? DEFAULT_CROP),
    }));
    return ensureHero(list);
  }, [uploader.uploaded, framing, heroId]);

  const submit = useMutation({
    mutationFn: (values: ApplyFormValues) => submitApplication(values, images),
  });

  const form = useForm({
    defaultValues,
    validators: { onSubmit: ApplicationFormSchema },
    onSubmitInvalid: ({ value }) => {
      const result = v.safeParse(ApplicationFormSchema, value);
      const target = result.issues ? stepOfFirstIssue(result.issues) : null;
      if (target !== null && target !== step) goTo(target);
    },
    onSubmit: async ({ value }) => {
      try {
        const result = await submit.mutateAsync(value);
        void invalidateVehicles(queryClient);
        if (result.imageError) {
          notify.error(UPLOAD_TEXTS.errorTitle, result.imageError, UPLOAD_TEXTS.errorFallback);
        } else {
          notify.success(APPLY_TEXTS.successTitle, APPLY_TEXTS.success);
        }
        await navigate({ to: '/dashboard' });
      } catch (error) {
        notify.error(APPLY_TEXTS.errorTitle, error, APPLY_TEXTS.errorFallback);
      }
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting) || submit.isPending;

  // Focus the new step's heading (not on first render), so keyboard and screen reader users follow.
  const headingId = 'apply-step-heading';
  const progressId = 'apply-progress';
  const stepChanged = useRef(false);
  useEffect(() => {
    if (!stepChanged.current) return;
    // The progress bar sits above the heading; scroll-margin keeps it clear of the fixed header.
    document.getElementById(progressId)?.scrollIntoView?.({ block: 'start' });
    document.getElementById(headingId)?.focus({ preventScroll: true });
  }, [step]);

  function goTo(target: number) {
    stepChanged.current = true;
    setStep(Math.min(LAST_STEP, Math.max(1, target)));
  }

  async function next() {
    const fields = stepFields(step) as (keyof ApplyFormValues)[];
    await Promise.all(fields.map((name) => form.validateField(name, 'change')));
    const schema = APPLICATION_STEP_SCHEMAS[step as keyof typeof APPLICATION_STEP_SCHEMAS];
    if (!schema || v.safeParse(schema, form.state.values).success) {
      goTo(step + 1);
      return;
    }
    // Let the messages render, then put the cursor on the first field that needs attention.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('#apply-form [aria-invalid="true"]')?.focus(),
    );
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    if (submitting) return;
    if (step < LAST_STEP) void next();
    else void form.handleSubmit();
  };

  const uploadsRunning = uploader.isUploading;

  return (
    <PageCard
      title={APPLY_TEXTS.title}
      description="Bewirb dich in vier Schritten mit deinem Fahrzeug für das Schlosstreffen."
      closeTo="/"
      width="lg"
    >
      <div id={progressId} className="scroll-mt-28">
        <StepProgress step={step} steps={CREATE_STEPS} />
      </div>

      <form
        id="apply-form"
        noValidate
        aria-labelledby={headingId}
        onSubmit={onSubmit}
        className="mt-8 flex flex-col gap-6"
      >
        <StepHeading id={headingId}>{CREATE_STEPS[step - 1]}</StepHeading>

        {step === 1 ? (
          <div className="flex flex-col gap-5">
            <p className="-mt-3 text-sm text-ash-400">Mit * markierte Felder sind Pflichtfelder.</p>
            <div className={fieldGridClass}>
              <form.Field name="brand" validators={{ onChange: S.brand }}>
                {(field) => (
                  <TextField
                    field={field}
                    label="Marke"
                    required
                    autoComplete="off"
                    placeholder="z. B. BMW"
                    maxLength={VEHICLE_TEXT_MAX.brand}
                  />
                )}
              </form.Field>
              <form.Field name="model" validators={{ onChange: S.model }}>
                {(field) => (
                  <TextField
                    field={field}
                    label="Modell"
                    required
                    autoComplete="off"
                    placeholder="z. B. M3 (E30)"
                    maxLength={VEHICLE_TEXT_MAX.model}
                  />
                )}
              </form.Field>
              <form.Field name="year" validators={{ onChange: S.year }}>
                {(field) => (
                  <NumberField
                    field={field}
                    label="Baujahr"
                    required
                    min={VEHICLE_LIMITS.year.min}
                    max={VEHICLE_LIMITS.year.max}
                  />
                )}
              </form.Field>
              <form.Field name="color" validators={{ onChange: S.color }}>
                {(field) => (
                  <TextField
                    field={field}
                    label="Farbe"
                    placeholder="z. B. Henna-Rot"
                    maxLength={VEHICLE_TEXT_MAX.color}
                  />
                )}
              </form.Field>
              <div className="sm:col-span-2">
                <form.Field name="name" validators={{ onChange: S.name }}>
                  {(field) => (
                    <TextField
                      field={field}
                      label="Name auf der Karte"
                      hint="Optionaler Spitzname deines Fahrzeugs. Er steht als Titel auf der Quartett-Karte, sonst Marke und Modell."
                      maxLength={VEHICLE_TEXT_MAX.name}
                    />
                  )}
                </form.Field>
              </div>
              <form.Field name="licensePlate" validators={{ onChange: S.licensePlate }}>
                {(field) => (
                  <TextField
                    field={field}
                    label="Kennzeichen"
                    autoComplete="off"
                    placeholder="z. B. DD-ST 2026"
                    maxLength={VEHICLE_TEXT_MAX.licensePlate}
                  />
                )}
              </form.Field>
              <form.Field name="vin" validators={{ onChange: S.vin }}>
                {(field) => (
                  <TextField
                    field={field}
                    label="FIN (Fahrgestellnummer)"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={VEHICLE_TEXT_MAX.vin}
                  />
                )}
              </form.Field>
            </div>
            <form.Field name="tuningCategories" validators={{ onChange: S.tuningCategories }}>
              {(field) => <TuningCategoriesField field={field} />}
            </form.Field>
            <form.Field name="descriptionShort" validators={{ onChange: S.descriptionShort }}>
              {(field) => (
                <TextAreaField
                  field={field}
                  label="Kurzbeschreibung"
                  rows={2}
                  maxLength={VEHICLE_TEXT_MAX.descriptionShort}
                  hint="Ein, zwei Sätze für die Fahrzeugkarte."
                />
              )}
            </form.Field>
            <form.Field name="descriptionLong" validators={{ onChange: S.descriptionLong }}>
              {(field) => (
                <TextAreaField
                  field={field}
                  label="Ausführliche Beschreibung"
                  rows={5}
                  maxLength={VEHICLE_TEXT_MAX.descriptionLong}
                  hint="Geschichte, Aufbau und Besonderheiten deines Fahrzeugs."
                />
              )}
            </form.Field>
          </div>
        ) : null}

        {step === 2 ? (
          <div className="flex flex-col gap-5">
            <p className="-mt-3 text-sm text-ash-400">Mit * markierte Felder sind Pflichtfelder.</p>
            <div className={fieldGridClass}>
              <form.Field name="ps" validators={{ onChange: S.ps }}>
                {(field) => <NumberField field={field} label="Leistung (PS)" required min={50} max={3000} />}
              </form.Field>
              <form.Field name="weightKg" validators={{ onChange: S.weightKg }}>
                {(field) => <NumberField field={field} label="Gewicht (kg)" required min={500} max={3000} />}
              </form.Field>
              <form.Field name="topSpeedKmh" validators={{ onChange: S.topSpeedKmh }}>
                {(field) => (
                  <NumberField
                    field={field}
                    label="Höchstgeschwindigkeit (km/h)"
                    required
                    min={100}
                    max={500}
                  />
                )}
              </form.Field>
              <form.Field name="zeroToHundredS" validators={{ onChange: S.zeroToHundredS }}>
                {(field) => (
                  <NumberField
                    field={field}
                    label="0-100 km/h (s)"
                    required
                    min={0}
                    max={300}
                    step={0.1}
                    inputMode="decimal"
                  />
                )}
              </form.Field>
              <form.Field name="torqueNm" validators={{ onChange: S.torqueNm }}>
                {(field) => <NumberField field={field} label="Drehmoment (Nm)" min={0} />}
              </form.Field>
              <form.Field name="quarterMileS" validators={{ onChange: S.quarterMileS }}>
                {(field) => (
                  <NumberField
                    field={field}
                    label="Viertelmeile (s)"
                    min={0}
                    max={60}
                    step={0.1}
                    inputMode="decimal"
                  />
                )}
              </form.Field>
              <form.Field name="driveType" validators={{ onChange: S.driveType }}>
                {(field) => (
                  <SelectField
                    label="Antriebsart"
                    name={field.name}
                    options={DRIVE_OPTIONS_CREATE}
                    value={field.state.value ?? ''}
                    onValueChange={field.handleChange}
                    onBlur={field.handleBlur}
                    error={fieldError(field)}
                  />
                )}
              </form.Field>
              <form.Field name="fuelType" validators={{ onChange: S.fuelType }}>
                {(field) => (
                  <SelectField
                    label="Kraftstoff"
                    name={field.name}
                    options={FUEL_OPTIONS}
                    value={field.state.value ?? ''}
                    onValueChange={field.handleChange}
                    onBlur={field.handleBlur}
                    error={fieldError(field)}
                  />
                )}
              </form.Field>
              <form.Field name="displacementCcm" validators={{ onChange: S.displacementCcm }}>
                {(field) => <NumberField field={field} label="Hubraum (ccm)" min={0} />}
              </form.Field>
              <form.Field name="cylinders" validators={{ onChange: S.cylinders }}>
                {(field) => <NumberField field={field} label="Zylinder" min={0} max={24} />}
              </form.Field>
            </div>
            <form.Field name="specialMods" validators={{ onChange: S.specialMods }}>
              {(field) => (
                <TextAreaField
                  field={field}
                  label="Besondere Modifikationen"
                  rows={4}
                  maxLength={VEHICLE_TEXT_MAX.specialMods}
                  hint="Was macht dein Fahrzeug einzigartig? Motor, Fahrwerk, Karosserie, Innenraum …"
                />
              )}
            </form.Field>
          </div>
        ) : null}

        {step === 3 ? (
          <div className="flex flex-col gap-5">
            <p className="-mt-3 text-sm text-ash-300">
              Zeig uns dein Fahrzeug von seiner besten Seite. Das erste Bild wird zum Hauptbild; du kannst ein
              anderes wählen und den Bildausschnitt für die Quartett-Karte anpassen.
            </p>
            <ImageUploadField uploader={uploader} />
            {images.length > 0 ? (
              <>
                <p className="text-sm text-ash-400" aria-live="polite">
                  {images.length} von {MAX_IMAGES_PER_VEHICLE} Bildern hochgeladen
                </p>
                <ImageCropEditor
                  images={images}
                  disabled={submitting}
                  onChange={(next) => {
                    setFraming(
                      Object.fromEntries(
                        next.map((image) => [
                          image.id,
                          { cropX: image.cropX, cropY: image.cropY, scale: image.scale },
                        ]),
                      ),
                    );
                    setHeroId(next.find((image) => image.isHero)?.id ?? null);
                  }}
                  onRemove={(image) => uploader.cancel(image.id)}
                />
              </>
            ) : null}
          </div>
        ) : null}

        {step === 4 ? (
          <div className="flex flex-col gap-4">
            <ApplicationSummary
              title={vehicleTitle(form.state.values.brand, form.state.values.model)}
              name={form.state.values.name}
              year={form.state.values.year}
              ps={form.state.values.ps}
              imageCount={images.length}
            />
            <p className="text-sm text-ash-300">
              Für die Teilnahme brauchen wir deine Zustimmung zu den folgenden Punkten.
            </p>
            <form.Field name="consentMedia" validators={{ onChange: S.consentMedia }}>
              {(field) => (
                <Checkbox
                  name={field.name}
                  checked={field.state.value}
                  onCheckedChange={field.handleChange}
                  onBlur={field.handleBlur}
                  error={fieldError(field)}
                  required
                  label="Ich willige ein, dass die Bilder meines Fahrzeugs auf der Website und in den sozialen Medien des Schlosstreffens veröffentlicht werden dürfen."
                />
              )}
            </form.Field>
            <form.Field name="consentQuartett" validators={{ onChange: S.consentQuartett }}>
              {(field) => (
                <Checkbox
                  name={field.name}
                  checked={field.state.value}
                  onCheckedChange={field.handleChange}
                  onBlur={field.handleBlur}
                  error={fieldError(field)}
                  required
                  label="Ich willige ein, dass mein Fahrzeug mit seinen technischen Daten, Bildern und meinem Namen im Auto-Quartett des Schlosstreffens erscheint."
                />
              )}
            </form.Field>
            <form.Field name="consentContact" validators={{ onChange: S.consentContact }}>
              {(field) => (
                <Checkbox
                  name={field.name}
                  checked={field.state.value}
                  onCheckedChange={field.handleChange}
                  onBlur={field.handleBlur}
                  error={fieldError(field)}
                  required
                  label="Ich willige ein, dass mich das Team des Schlosstreffens zu meiner Bewerbung kontaktieren darf."
                />
              )}
            </form.Field>
          </div>
        ) : null}

        <div className="mt-2 flex flex-col gap-3 border-t border-white/10 pt-6">
          {uploadsRunning && step >= 3 ? (
            <p className="text-sm text-gold-200" role="status">
              {APPLY_TEXTS.uploading}
            </p>
          ) : null}
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <Button
              variant="secondary"
              className="disabled:opacity-40"
              disabled={step === 1 || submitting}
              onClick={() => goTo(step - 1)}
            >
              Zurück
            </Button>
            {step < LAST_STEP ? (
              <Button type="submit" disabled={step === 3 && uploadsRunning}>
                Weiter
              </Button>
            ) : (
              <Button type="submit" disabled={submitting || uploadsRunning}>
                {submitting ? (
                  <>
                    <Spinner />
                    {APPLY_TEXTS.submitting}
                  </>
                ) : (
                  APPLY_TEXTS.submit
                )}
              </Button>
            )}
          </div>
        </div>
      </form>
    </PageCard>
  );
}

const numberFormat = new Intl.NumberFormat('de-DE');

function ApplicationSummary({
  title,
  name,
  year,
  ps,
  imageCount,
}: {
  title: string;
  name: string | null | undefined;
  year: number | null;
  ps: number | null;
  imageCount: number;
}) {
  const details = [
    year ? String(year) : null,
    ps ? `${numberFormat.format(ps)} PS` : null,
    imageCount === 1 ? '1 Bild' : `${imageCount} Bilder`,
  ].filter(Boolean);
  return (
    <div className="rounded-xl border border-gold-500/20 bg-night-950/60 px-4 py-3">
      <p className="text-xs tracking-[0.2em] text-ash-400 uppercase">Deine Bewerbung</p>
      <p className="mt-1 font-display text-lg text-gold-200">{name?.trim() || title || 'Dein Fahrzeug'}</p>
      <p className="text-sm text-ash-300">
        {name?.trim() && title ? `${title} · ` : ''}
        {details.join(' · ')}
      </p>
    </div>
  );
}
