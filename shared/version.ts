/**
 * The wire protocol's version: 4 brought the CPace handshake (a HELLO of protocol 3 gets a version REJECT); 5 the
 * live resize and rotate in the presence drag group.
 */
export const PROTOCOL_VERSION = 5;
