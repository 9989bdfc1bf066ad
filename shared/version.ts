/**
 * The wire protocol's version: 4 brought the CPace handshake (a HELLO of protocol 3 gets a version REJECT); 5 the
 * live resize and rotate in the presence drag group, the session's event window of 256 (one more sequence bit: a
 * peer of 4 would misread every ordered event), points as differences, lock (pin), co-editing and image blobs; 6
 * a one-way delay field in every data packet (the adaptive rate's queue measure) and rate codes up to 240
 * packets/s (a peer of 5 would misread every packet); 7 the session's `hosts` message (its 33rd RPC makes every
 * RPC id 6 bits: a peer of 6 would misread every event).
 */
export const PROTOCOL_VERSION = 7;
