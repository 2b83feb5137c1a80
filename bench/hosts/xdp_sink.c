/*
 * A counting sink for bench/hosts/port_rate_bench.sh: takes every frame that reaches an interface's first QUEUES
 * receive queues through AF_XDP (libxdp's program, before any skb exists), counts it and hands its frame straight back
 * to the fill ring. Prints the frames received each second; at SIGUSR1 "received N frames; " and the first socket's
 * own drop counters, and the same with the time and rate at SIGTERM or SIGINT. It sleeps in poll() when idle.
 *
 *   cc -O2 -o xdp_sink xdp_sink.c -lxdp -lbpf && ./xdp_sink IF [QUEUES]
 */
#define _GNU_SOURCE
#include "xsk_port.h"
#include <poll.h>
#include <signal.h>
#include <time.h>

#define RING 4096
#define FRAMES (2 * RING)
#define BATCH 64
#define MAX_QUEUES 16

static volatile sig_atomic_t stop, report;

static void on_signal(int signal) {
    if (signal == SIGUSR1) {
        report = 1;
    } else {
        stop = 1;
    }
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double) time.tv_sec + (double) time.tv_nsec / 1e9;
}

/* Counts what waits on the port's receive ring (a batch at most) and gives its frames back to receive into. */
static unsigned drain(struct xsk_port *port) {
    __u64 addresses[BATCH];
    unsigned index;
    unsigned count = xsk_ring_cons__peek(&port->rx, BATCH, &index);
    for (unsigned i = 0; i < count; i++) {
        addresses[i] = xsk_ring_cons__rx_desc(&port->rx, index + i)->addr;
    }
    xsk_ring_cons__release(&port->rx, count);
    give_fill(port, addresses, count);
    if (xsk_ring_prod__needs_wakeup(&port->fill)) {
        recvfrom(port->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
    }
    return count;
}

int main(int argc, char **argv) {
    char *end = "";
    long queues = argc == 3 ? strtol(argv[2], &end, 10) : 1;
    if (argc < 2 || argc > 3 || *end || queues < 1 || queues > MAX_QUEUES) {
        fprintf(stderr, "usage: xdp_sink IF [QUEUES (1..%d)]\n", MAX_QUEUES);
        return 2;
    }
    struct xsk_port ports[MAX_QUEUES] = {0};
    struct pollfd waits[MAX_QUEUES];
    for (int q = 0; q < queues; q++) {
        void *area;
        struct xsk_umem *umem = open_umem(&area, FRAMES, FRAMES, &ports[q]);
        open_port(&ports[q], umem, argv[1], (unsigned) q, 1, 0, 0, RING);
        for (__u64 frame = 0; frame < FRAMES; frame += BATCH) {
            __u64 addresses[BATCH];
            for (unsigned i = 0; i < BATCH; i++) {
                addresses[i] = (frame + i) * FRAME_BYTES;
            }
            give_fill(&ports[q], addresses, BATCH);
        }
        waits[q] = (struct pollfd) {ports[q].fd, POLLIN, 0};
    }
    fprintf(stderr, "xdp_sink: %s in %s mode, %ld queue(s), running\n", argv[1], ports[0].mode, queues);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGUSR1, on_signal);
    unsigned long long received = 0, last = 0;
    double start = now(), tick = start + 1;
    while (!stop) {
        unsigned moved = 0;
        for (int q = 0; q < queues; q++) {
            moved += drain(&ports[q]);
        }
        received += moved;
        if (moved == 0) {
            poll(waits, (nfds_t) queues, 100);
        }
        if (now() >= tick) {
            printf("%.0f frames/s\n", (double) (received - last));
            fflush(stdout);
            last = received;
            tick += 1;
        }
        if (report) {
            report = 0;
            printf("received %llu frames; ", received);
            print_drops(stdout, &ports[0]);
            fflush(stdout);
        }
    }
    double elapsed = now() - start;
    printf("received %llu frames in %.3f s: %.0f frames/s; ", received, elapsed, (double) received / elapsed);
    print_drops(stdout, &ports[0]);
    /* Closing the sockets takes libxdp's program off the interface again. */
    for (int q = 0; q < queues; q++) {
        xsk_socket__delete(ports[q].socket);
    }
    return 0;
}
