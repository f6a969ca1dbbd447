/**
 * The query key under which a server-rendered page hands over the moment it was rendered (ms), so
 * time-dependent markup (the countdown) hydrates as rendered.
 */
export const RENDERED_AT_KEY = ['rendered-at'] as const;
