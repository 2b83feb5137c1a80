/*
 * The userspace limit for AF_XDP ports, beside afpacket_forwarder.c: a forwarder between two interfaces that parses
 * nothing and queues nothing. One AF_XDP socket per interface (queue 0), both on one UMEM, so that a frame received
 * on one goes out of the other from the same buffer: each direction owns half the frames, which circle from the
 * receiving socket's fill ring through its receive ring to the other's send ring and back by its completion ring.
 * Idle: poll(), or with --busy a spinning loop. At SIGTERM or SIGINT it prints what it forwarded and each socket's
 * own drop counters.
 *
 *   cc -O2 -o xdp_forwarder xdp_forwarder.c -lxdp -lbpf && ./xdp_forwarder IF0 IF1 [--busy]
 */
#define _GNU_SOURCE
#include "xsk_port.h"
#include <poll.h>
#include <signal.h>

#define RING 2048
#define HALF (2 * RING)
#define BATCH 64

static volatile sig_atomic_t stop;

static void on_signal(int signal) {
    (void) signal;
    stop = 1;
}

/* Whether frames wait on the port's send ring for the kernel to take them. */
static int sending(const struct xsk_port *port) {
    return *port->tx.producer != __atomic_load_n(port->tx.consumer, __ATOMIC_ACQUIRE);
}

/* Moves what waits on from's receive ring out of to's send ring; gives to's sent frames back to from's fill ring. */
static unsigned forward(struct xsk_port *from, struct xsk_port *to) {
    __u64 done[HALF];
    unsigned completed = take_completed(to, done, HALF);
    if (give_fill(from, done, completed) != completed) {
        fprintf(stderr, "xdp_forwarder: fill ring full\n");
        exit(1);
    }
    unsigned in, out = 0;
    unsigned count = xsk_ring_cons__peek(&from->rx, xsk_prod_nb_free(&to->tx, BATCH) < BATCH ? 0 : BATCH, &in);
    if (count > 0) {
        xsk_ring_prod__reserve(&to->tx, count, &out);
        for (unsigned i = 0; i < count; i++) {
            *xsk_ring_prod__tx_desc(&to->tx, out + i) = *xsk_ring_cons__rx_desc(&from->rx, in + i);
        }
        xsk_ring_prod__submit(&to->tx, count);
        xsk_ring_cons__release(&from->rx, count);
    }
    if (sending(to)) {
        kick_tx(to);
    }
    if (xsk_ring_prod__needs_wakeup(&from->fill)) {
        recvfrom(from->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--busy"))) {
        fprintf(stderr, "usage: xdp_forwarder IF0 IF1 [--busy]\n");
        return 2;
    }
    int busy = argc == 4;
    struct xsk_port ports[2] = {{0}};
    void *area;
    struct xsk_umem *umem = open_umem(&area, 2 * HALF, HALF, &ports[0]);
    open_port(&ports[0], umem, argv[1], 0, 1, 1, 0, RING);
    open_port(&ports[1], umem, argv[2], 0, 1, 1, 1, RING);
    __u64 addresses[HALF];
    for (int p = 0; p < 2; p++) {
        for (unsigned i = 0; i < HALF; i++) {
            addresses[i] = ((__u64) p * HALF + i) * FRAME_BYTES;
        }
        give_fill(&ports[p], addresses, HALF);
    }
    fprintf(stderr, "xdp_forwarder: %s in %s mode, %s in %s mode, running\n", argv[1], ports[0].mode, argv[2],
            ports[1].mode);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    struct pollfd waits[2] = {{ports[0].fd, POLLIN, 0}, {ports[1].fd, POLLIN, 0}};
    unsigned long long forwarded = 0;
    while (!stop) {
        unsigned moved = forward(&ports[0], &ports[1]) + forward(&ports[1], &ports[0]);
        forwarded += moved;
        if (moved == 0 && !busy && !sending(&ports[0]) && !sending(&ports[1])) {
            poll(waits, 2, 100);
        }
    }
    printf("forwarded %llu frames\n%s: ", forwarded, argv[1]);
    print_drops(stdout, &ports[0]);
    printf("%s: ", argv[2]);
    print_drops(stdout, &ports[1]);
    /* Closing the sockets takes libxdp's program off the interfaces again. */
    xsk_socket__delete(ports[1].socket);
    xsk_socket__delete(ports[0].socket);
    xsk_umem__delete(umem);
    return 0;
}
