import { STATUS_LABELS, VEHICLE_STATUSES, type VehicleStatus } from '@schlosstreffen/shared';
import { SelectField } from '../../../components/ui/select';

const STATUS_OPTIONS = VEHICLE_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }));

/** The 'Status' select of the status change and of the correction, naming the application's status. */
export function StatusSelect(props: {
  value: VehicleStatus;
  onChange: (status: VehicleStatus) => void;
  onBlur: () => void;
  disabled: boolean;
  /** The application's status as it stands, under its label ('Aktuell', 'Erfasst'). */
  current: { label: string; status: VehicleStatus };
}) {
  return (
    <SelectField
      label="Status"
      name="status"
      required
      options={STATUS_OPTIONS}
      value={props.value}
      onValueChange={(value) => {
        if (value) props.onChange(value as VehicleStatus);
      }}
      onBlur={props.onBlur}
      disabled={props.disabled}
      hint={
        <>
          {props.current.label}: <span className="text-parchment">{STATUS_LABELS[props.current.status]}</span>
        </>
      }
    />
  );
}
