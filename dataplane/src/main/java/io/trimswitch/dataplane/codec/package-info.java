/**
 * Headers read and written in place, as static flyweight methods over a frame's buffer. They take Agrona's
 * {@code UnsafeBuffer}, a final class, rather than its interfaces: a virtual-time command is over before the
 * optimising compiler starts, and the quick compiler inlines a call on a final class but not one through an
 * interface (about 8 % of a whole default scenario's CPU time).
 */
package io.trimswitch.dataplane.codec;
