/*
 * What the AF_XDP programs of bench/hosts share (xdp_generator.c, xdp_sink.c, xdp_forwarder.c): a UMEM and a socket
 * on one queue of an interface, opened through libxdp, in the fastest mode the interface takes: the XDP program in
 * driver mode (else generic), zero-copy (else copy), need_wakeup on; and the socket's own drop counters.
 * Build with -lxdp -lbpf. libxdp loads its own program (redirect by receive queue to the socket map, pass the rest);
 * with no bpffs mounted it loads it alone, without its dispatcher, and says so once.
 */
#ifndef XSK_PORT_H
#define XSK_PORT_H

#include <errno.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xdp/xsk.h>

#define FRAME_BYTES XSK_UMEM__DEFAULT_FRAME_SIZE
/* Newer kernels (6.17+) let a copy-mode socket send more than 32 frames a system call. */
#ifndef XDP_MAX_TX_SKB_BUDGET
#define XDP_MAX_TX_SKB_BUDGET 9
#endif

struct xsk_port {
    struct xsk_socket *socket;
    struct xsk_ring_cons rx, comp;
    struct xsk_ring_prod tx, fill;
    int fd;
    char mode[24];
};

/* A UMEM of `frames` frames, its fill and completion rings `ring` entries each (for the first socket on it). */
static inline struct xsk_umem *open_umem(void **area, unsigned frames, unsigned ring, struct xsk_port *first) {
    *area = mmap(NULL, (size_t) frames * FRAME_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct xsk_umem_config config = {ring, ring, FRAME_BYTES, 0, 0};
    struct xsk_umem *umem;
    int error = *area == MAP_FAILED ? ENOMEM
        : -xsk_umem__create(&umem, *area, (size_t) frames * FRAME_BYTES, &first->fill, &first->comp, &config);
    if (error) {
        fprintf(stderr, "xsk: UMEM of %u frames: %s\n", frames, strerror(error));
        exit(2);
    }
    return umem;
}

/*
 * A socket on queue `queue` of `name` over `umem`, receiving if `receive` (then with libxdp's program attached) and
 * sending if `send`. `shared` for a second socket on the same UMEM: it gets fill and completion rings of its own.
 */
static inline void open_port(struct xsk_port *port, struct xsk_umem *umem, const char *name, unsigned queue,
                             int receive, int send, int shared, unsigned ring) {
    static const struct {
        unsigned xdp, bind;
        char mode[24];
    } modes[] = {
        {XDP_FLAGS_DRV_MODE, XDP_ZEROCOPY, "driver"},
        {XDP_FLAGS_DRV_MODE, XDP_COPY, "driver"},
        {XDP_FLAGS_SKB_MODE, XDP_COPY, "generic"},
    };
    int error = 0, busy_tries = 0;
    for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        struct xsk_socket_config config = {
            .rx_size = ring, .tx_size = ring, .xdp_flags = modes[i].xdp,
            .libxdp_flags = receive ? 0 : XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
            .bind_flags = (unsigned short) (modes[i].bind | XDP_USE_NEED_WAKEUP),
        };
        error = shared
            ? -xsk_socket__create_shared(&port->socket, name, queue, umem, receive ? &port->rx : NULL,
                                         send ? &port->tx : NULL, &port->fill, &port->comp, &config)
            : -xsk_socket__create(&port->socket, name, queue, umem, receive ? &port->rx : NULL,
                                  send ? &port->tx : NULL, &config);
        if (error == EBUSY && busy_tries++ < 50) {
            usleep(100000); /* a socket just closed on this queue is released a moment later */
            i--;
            continue;
        }
        if (!error) {
            port->fd = xsk_socket__fd(port->socket);
            /* A socket that shares a UMEM takes the first one's copy mode, whatever it asked for. */
            struct xdp_options options = {0};
            socklen_t length = sizeof options;
            getsockopt(port->fd, SOL_XDP, XDP_OPTIONS, &options, &length);
            snprintf(port->mode, sizeof port->mode, "%s, %s", modes[i].mode,
                     options.flags & XDP_OPTIONS_ZEROCOPY ? "zero-copy" : "copy");
            int budget = (int) ring;
            setsockopt(port->fd, SOL_XDP, XDP_MAX_TX_SKB_BUDGET, &budget, sizeof budget);
            return;
        }
    }
    fprintf(stderr, "xsk: %s queue %u: %s\n", name, queue, strerror(error));
    exit(2);
}

/* The socket's drop counters, as one line: "rx_dropped R rx_ring_full F fill_empty E tx_invalid T". */
static inline void print_drops(FILE *out, const struct xsk_port *port) {
    struct xdp_statistics stats = {0};
    socklen_t length = sizeof stats;
    getsockopt(port->fd, SOL_XDP, XDP_STATISTICS, &stats, &length);
    fprintf(out, "rx_dropped %llu rx_ring_full %llu fill_empty %llu tx_invalid %llu\n",
            (unsigned long long) stats.rx_dropped, (unsigned long long) stats.rx_ring_full,
            (unsigned long long) stats.rx_fill_ring_empty_descs, (unsigned long long) stats.tx_invalid_descs);
}

/* Asks the kernel to send what waits on the send ring, where it wants asking (copy mode always does). */
static inline void kick_tx(struct xsk_port *port) {
    if (xsk_ring_prod__needs_wakeup(&port->tx)) {
        sendto(port->fd, NULL, 0, MSG_DONTWAIT, NULL, 0);
    }
}

/* Takes the frames the kernel has sent back off the completion ring, at most `max`; puts their addresses in `out`. */
static inline unsigned take_completed(struct xsk_port *port, __u64 *out, unsigned max) {
    unsigned index;
    unsigned done = xsk_ring_cons__peek(&port->comp, max, &index);
    for (unsigned i = 0; out && i < done; i++) {
        out[i] = *xsk_ring_cons__comp_addr(&port->comp, index + i);
    }
    xsk_ring_cons__release(&port->comp, done);
    return done;
}

/* Gives `count` frames to the kernel to receive into; returns how many the fill ring took (all, or none). */
static inline unsigned give_fill(struct xsk_port *port, const __u64 *addresses, unsigned count) {
    unsigned index;
    if (count == 0 || xsk_ring_prod__reserve(&port->fill, count, &index) != count) {
        return 0;
    }
    for (unsigned i = 0; i < count; i++) {
        *xsk_ring_prod__fill_addr(&port->fill, index + i) = addresses[i];
    }
    xsk_ring_prod__submit(&port->fill, count);
    return count;
}

#endif
