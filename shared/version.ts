/** The wire protocol's version: 4 brought the CPace handshake (a HELLO of protocol 3 gets a version REJECT). */
export const PROTOCOL_VERSION = 4;
