import { defineEntity, p } from '@mikro-orm/core';
import { Invitation } from './invitation.entity.js';
import { User } from './user.entity.js';

/**
 * One scan at a gate, online or sent later by a device that was offline, kept under the id the
 * device gave it (a resend is the same row). The invitation points at its earliest scan, which won
 * (`Invitation.checkedInScanId`). A scan names the staff account and the gate, never the owner.
 */
const CheckInScanSchema = defineEntity({
  name: 'CheckInScan',
  tableName: 'check_in_scan',
  indexes: [{ name: 'check_in_scan_invitation_index', properties: ['invitation', 'scannedAt', 'id'] }],
  properties: {
    /** Chosen by the device (or the server, for the online screen). */
    id: p.uuid().primary(),
    invitation: () => p.manyToOne(Invitation).deleteRule('cascade'),
    deviceId: p.uuid().index('check_in_scan_device_index'),
    gate: p.string().length(40),
    scannedAt: p.datetime(),
    receivedAt: p.datetime().defaultRaw('now()').index('check_in_scan_received_index'),
    staff: () => p.manyToOne(User).nullable().deleteRule('set null'),
  },
});

export class CheckInScan extends CheckInScanSchema.class {}
CheckInScanSchema.setClass(CheckInScan);
