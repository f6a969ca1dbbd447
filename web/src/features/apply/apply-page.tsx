import { useForm, useStore } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import {
  brandAndModel,
  SUBMISSION_CONSENT_KINDS,
  CONSENTS,
  MAX_IMAGES_PER_VEHICLE,
  WIZARD_STEPS_CREATE,
} from '@schlosstreffen/shared';
import { useMemo, useState } from 'react';
import * as v from 'valibot';
import { PrivacyLink } from '../../components/privacy-link';
import { Checkbox } from '../../components/ui/checkbox';
import { fieldError } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { applicationsRefusal } from './application-window';
import { siteVehicleSchemas } from '../../lib/vehicle-schemas';
import { DEFAULT_CROP, ensureHero, type CropValues } from '../media/crop';
import { ImageCropEditor, type CropImage } from '../media/image-crop-editor';
import { ImageUploadField } from '../media/image-upload-field';
import { UPLOAD_TEXTS, useImageUploader } from '../media/use-image-uploader';
import { EmailConfirmNotice } from '../account/email-confirm-notice';
import { textLinkClass } from '../account/form-parts';
import { invalidateVehicles } from '../vehicles/vehicle-queries';
import { submitApplication } from './submit-application';
import {
  BasicDataFields,
  FormStepNav,
  PerformanceFields,
  StepHeading,
  StepProgress,
  useFormSteps,
  type VehicleFormFields,
} from '../vehicle-form/vehicle-fields';
import {
  CREATE_STEPS,
  createDefaultValues,
  stepFields,
  type ApplyFormValues,
} from '../vehicle-form/vehicle-form-values';

const APPLY_TEXTS = {
  title: 'Fahrzeug anmelden',
  submit: 'Bewerbung einreichen',
  submitting: 'Wird eingereicht...',
  successTitle: 'Bewerbung eingereicht!',
  success: 'Ihr Fahrzeug wurde zur Prüfung eingereicht.',
  errorTitle: 'Einreichung fehlgeschlagen',
  errorFallback: RETRY_HINT,
  uploading: 'Bitte warte, bis alle Bilder hochgeladen sind.',
} as const;

const LAST_STEP = WIZARD_STEPS_CREATE;

/** The consents of the last step, in the order shown; wording and version come from shared. */
const CONSENT_FIELDS = SUBMISSION_CONSENT_KINDS.map((kind) => ({
  name: CONSENTS[kind].field,
  label: CONSENTS[kind].text,
}));

interface WizardImage extends CropImage {
  objectPath: string;
}

/** /apply: the wizard while the current edition takes applications, else why it does not. */
export function ApplyPage() {
  const refusal = applicationsRefusal();
  if (refusal) {
    return (
      <PageCard title={APPLY_TEXTS.title} closeTo="/" width="lg">
        <p
          role="status"
          className="rounded-xl border border-gold-500/30 bg-night-950/60 px-4 py-3 text-ash-200"
        >
          {refusal}
        </p>
        <p className="mt-4 text-sm text-ash-400">
          Bereits gespeicherte Entwürfe findest du in deinem{' '}
          <Link to="/dashboard" className={textLinkClass}>
            Dashboard
          </Link>
          .
        </p>
      </PageCard>
    );
  }
  return <ApplyWizard />;
}

/** The four-step application wizard; each step is checked before 'Weiter' moves on. */
function ApplyWizard() {
  // The configured edition's schemas (the year runs up to the event's year).
  const { ApplicationFormSchema, APPLICATION_STEP_SCHEMAS } = siteVehicleSchemas();
  const S = ApplicationFormSchema.entries;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { step, goTo, ids, focusFirstInvalid, goToFirstInvalidStep, submitStep } = useFormSteps(
    'apply',
    LAST_STEP,
  );
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
    onSubmitInvalid: ({ value }) => goToFirstInvalidStep(ApplicationFormSchema, value),
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
  // The consents are rendered from a list; the list's names are one union type.
  const consentForm: VehicleFormFields = form;
  const submitting = useStore(form.store, (state) => state.isSubmitting) || submit.isPending;

  async function next() {
    const fields = stepFields(step) as (keyof ApplyFormValues)[];
    await Promise.all(fields.map((name) => form.validateField(name, 'change')));
    const schema = APPLICATION_STEP_SCHEMAS[step as keyof typeof APPLICATION_STEP_SCHEMAS];
    if (!schema || v.safeParse(schema, form.state.values).success) {
      goTo(step + 1);
      return;
    }
    focusFirstInvalid();
  }

  const onSubmit = submitStep({ busy: submitting, next, submit: () => form.handleSubmit() });

  const uploadsRunning = uploader.isUploading;

  return (
    <PageCard
      title={APPLY_TEXTS.title}
      description="Bewirb dich in vier Schritten mit deinem Fahrzeug für das Schlosstreffen."
      closeTo="/"
      width="lg"
    >
      <EmailConfirmNotice className="mb-6" />
      <div id={ids.progress} className="scroll-mt-28">
        <StepProgress step={step} steps={CREATE_STEPS} />
      </div>

      <form
        id={ids.form}
        noValidate
        aria-labelledby={ids.heading}
        onSubmit={onSubmit}
        className="mt-8 flex flex-col gap-6"
      >
        <StepHeading id={ids.heading}>{CREATE_STEPS[step - 1]}</StepHeading>

        {step === 1 ? <BasicDataFields form={form} schema={S} variant="create" /> : null}

        {step === 2 ? <PerformanceFields form={form} schema={S} variant="create" /> : null}

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
              title={brandAndModel(form.state.values)}
              name={form.state.values.name}
              year={form.state.values.year}
              ps={form.state.values.ps}
              imageCount={images.length}
            />
            <p className="text-sm text-ash-300">
              Für die Teilnahme brauchen wir deine Zustimmung zu den folgenden Punkten.
            </p>
            {CONSENT_FIELDS.map(({ name, label }) => (
              <consentForm.Field key={name} name={name} validators={{ onChange: S[name] }}>
                {(field) => (
                  <Checkbox
                    name={field.name}
                    checked={field.state.value as boolean}
                    onCheckedChange={field.handleChange}
                    onBlur={field.handleBlur}
                    error={fieldError(field)}
                    required
                    label={label}
                  />
                )}
              </consentForm.Field>
            ))}
            <p className="text-xs leading-relaxed text-ash-400">
              Du kannst jede Einwilligung später in deinem Profil widerrufen. Was wir speichern und wie lange,
              steht in der <PrivacyLink className={textLinkClass} />.
            </p>
          </div>
        ) : null}

        <FormStepNav
          step={step}
          lastStep={LAST_STEP}
          busy={submitting}
          uploading={uploadsRunning}
          uploadingNote={uploadsRunning && step >= 3 ? APPLY_TEXTS.uploading : null}
          nextDisabled={step === 3 && uploadsRunning}
          submitLabel={APPLY_TEXTS.submit}
          busyLabel={APPLY_TEXTS.submitting}
          onBack={() => goTo(step - 1)}
        />
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
