export const PROTOCOL_VERSION = 3;
