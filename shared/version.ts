/**
 * The wire protocol's version: 4 brought the CPace handshake (a HELLO of protocol 3 gets a version REJECT); 5 the
 * live resize and rotate in the presence drag group, the session's event window of 256 (one more sequence bit: a
 * peer of 4 would misread every ordered event), points as differences, lock (pin), co-editing and image blobs; 6
 * a rate field of up to 240 packets/s (8 bits: a peer of 5 would misread every packet carrying one).
 */
export const PROTOCOL_VERSION = 6;
