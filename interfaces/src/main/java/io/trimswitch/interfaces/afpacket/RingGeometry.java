package io.trimswitch.interfaces.afpacket;

/**
 * The shape of a port's TPACKET_V2 receive ring: {@link #FRAMES} slots, each just long enough for a frame of the
 * interface's MTU behind the kernel's headers, packed into blocks of a few pages. A 1500-byte MTU takes 1600-byte
 * slots, five to a two-page block (6.4 MiB a port), where slots of 2048 bytes took 8 MiB for as many frames. The
 * kernel wants each block a whole number of pages (it allocates a power of two of them) and no slot across two
 * blocks; the bytes left at a block's end are what that costs. A frame longer than a slot (an offload frame, a jumbo frame, an MTU raised later) still arrives: cut
 * in its slot, whole in the socket's queue ({@link PacketSocket}).
 *
 * @param slotBytes      bytes of one slot, a multiple of 16 (TPACKET_ALIGNMENT)
 * @param slotsPerBlock  slots in one block
 * @param blockBytes     bytes of one block, a power of two of pages
 * @param blocks         blocks in the ring
 */
record RingGeometry(int slotBytes, int slotsPerBlock, int blockBytes, int blocks) {
    /** Slots a ring holds at least: enough for a host's burst while the port's thread is away. */
    static final int FRAMES = 4096;
    /** The longest slot: a frame of a 1500-byte MTU with room to spare, as every slot was before they fit the MTU. */
    static final int MAX_SLOT_BYTES = 2048;
    /**
     * Where a slot's frame ends past its IP packet, at most: tpacket2_hdr and sockaddr_ll (52 bytes) and the link
     * header (16 at least) rounded to 16 bytes, then the 10-byte virtio_net_hdr (PACKET_VNET_HDR), is 90 bytes before the
     * network header (af_packet's tpacket_rcv); 6 more to spare.
     */
    static final int NETWORK_HEADER_AT = 96;
    private static final int ALIGNMENT = 16;
    /** The largest block tried: 64 KiB, a small enough allocation for the kernel to find contiguous. */
    private static final int MAX_BLOCK_BYTES = 64 << 10;

    /** The smallest ring of at least {@link #FRAMES} slots for frames of {@code mtu} on a machine of {@code pageBytes} pages. */
    static RingGeometry forMtu(final int mtu, final int pageBytes) {
        if (mtu <= 0 || pageBytes <= 0 || Integer.bitCount(pageBytes) != 1) {
            throw new IllegalArgumentException("receive ring for an MTU of " + mtu + " and pages of " + pageBytes + " bytes");
        }
        final int slot = (int) Math.min(MAX_SLOT_BYTES, ((long) NETWORK_HEADER_AT + mtu + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
        RingGeometry best = null;
        // Blocks of a power of two of pages: the kernel allocates each block so, whatever of it the ring uses.
        for (int block = pageBytes; block <= Math.max(pageBytes, MAX_BLOCK_BYTES); block *= 2) {
            final int perBlock = block / slot;
            if (perBlock == 0) {
                continue;
            }
            final RingGeometry ring = new RingGeometry(slot, perBlock, block, (FRAMES + perBlock - 1) / perBlock);
            if (best == null || ring.bytes() < best.bytes()) {
                best = ring;
            }
        }
        return best;
    }

    /** Slots in the ring: {@link #FRAMES} or a few more, to fill the last block. */
    int frames() {
        return slotsPerBlock * blocks;
    }

    /** Bytes of the ring, which the kernel allocates whole and the switch maps. */
    long bytes() {
        return (long) blockBytes * blocks;
    }
}
