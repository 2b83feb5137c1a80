/*
 * A traffic generator for bench/hosts/port_rate_bench.sh that outruns the forwarders it measures: UDP frames out of an
 * interface through AF_XDP send rings (one socket and one thread per queue), written once into the UMEM and then only
 * pointed at, 64 descriptors a batch, the kernel asked to send only when it wants asking (need_wakeup). At --rate PPS
 * it offers that many frames a second in small bursts and sleeps between them (as `trafgen -b`); without, as many as
 * it can. Frames are SIZE bytes without the FCS (60: 64 on a wire), from the interface's address to DST_MAC,
 * 198.18.0.1 to 198.18.0.2, UDP to port 9 from port 1024 + the queue. At the end it prints
 * "sent N frames in T s: R frames/s", counting what the kernel took off the send rings.
 *
 *   cc -O2 -o xdp_generator xdp_generator.c -lxdp -lbpf -lpthread
 *   ./xdp_generator IF DST_MAC [--size 60] [--rate PPS] [--seconds 5] [--queues 1]
 */
#define _GNU_SOURCE
#include "xsk_port.h"
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/if.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define RING 2048
#define BATCH 64
#define MAX_QUEUES 16

static volatile sig_atomic_t stop;
static const char *interface;
static unsigned char macs[ETH_ALEN * 2];
static unsigned size = 60, queues = 1;
static double rate, seconds = 5;

struct sender {
    pthread_t thread;
    unsigned queue;
    unsigned long long sent;
    double seconds;
};

static void on_signal(int signal) {
    (void) signal;
    stop = 1;
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double) time.tv_sec + (double) time.tv_nsec / 1e9;
}

static unsigned short checksum(const void *data, unsigned bytes) {
    const unsigned short *words = data;
    unsigned sum = 0;
    for (unsigned i = 0; i < bytes / 2; i++) {
        sum += words[i];
    }
    sum = (sum & 0xffff) + (sum >> 16);
    return (unsigned short) ~(sum + (sum >> 16));
}

/* Ethernet, IPv4 and UDP headers of one frame, zeros after them. */
static void write_frame(unsigned char *frame, unsigned queue) {
    memset(frame, 0, size);
    memcpy(frame, macs, sizeof macs);
    frame[12] = 0x08;
    struct iphdr *ip = (struct iphdr *) (frame + ETH_HLEN);
    *ip = (struct iphdr) {.ihl = 5, .version = 4, .tot_len = htons((unsigned short) (size - ETH_HLEN)), .ttl = 64,
                          .protocol = IPPROTO_UDP, .saddr = htonl(0xc6120001), .daddr = htonl(0xc6120002)};
    ip->check = checksum(ip, sizeof *ip);
    struct udphdr *udp = (struct udphdr *) (ip + 1);
    *udp = (struct udphdr) {.source = htons((unsigned short) (1024 + queue)), .dest = htons(9),
                            .len = htons((unsigned short) (size - ETH_HLEN - sizeof *ip))};
}

static void *send_queue(void *argument) {
    struct sender *sender = argument;
    struct xsk_port port = {0};
    void *area;
    struct xsk_umem *umem = open_umem(&area, RING, RING, &port);
    open_port(&port, umem, interface, sender->queue, 0, 1, 0, RING);
    for (unsigned i = 0; i < RING; i++) {
        write_frame((unsigned char *) area + (size_t) i * FRAME_BYTES, sender->queue);
    }
    if (sender->queue == 0) {
        fprintf(stderr, "xdp_generator: %s in %s mode, %u queue(s)\n", interface, port.mode, queues);
    }
    /* At a fixed rate, bursts of what 50 µs are due, so that it sleeps between them rather than spins. */
    double share = rate / queues, start = now();
    unsigned burst = share > 0 && share < 20000 * BATCH ? (unsigned) (share / 20000) + 1 : BATCH;
    unsigned long long submitted = 0, completed = 0;
    while (!stop) {
        completed += take_completed(&port, NULL, RING);
        double elapsed = now() - start;
        if (elapsed >= seconds) {
            break;
        }
        unsigned want = RING - (unsigned) (submitted - completed);
        want = want < BATCH ? want : BATCH;
        if (share > 0) {
            double due = share * elapsed - (double) submitted;
            if (due < burst) {
                double wake = start + ((double) submitted + burst) / share;
                struct timespec until = {(time_t) wake, (long) ((wake - (double) (time_t) wake) * 1e9)};
                clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
                continue;
            }
            want = want < (unsigned) due ? want : (unsigned) due;
        }
        unsigned index;
        if (want > 0 && xsk_ring_prod__reserve(&port.tx, want, &index) == want) {
            for (unsigned i = 0; i < want; i++) {
                struct xdp_desc *descriptor = xsk_ring_prod__tx_desc(&port.tx, index + i);
                descriptor->addr = ((submitted + i) % RING) * FRAME_BYTES;
                descriptor->len = size;
            }
            xsk_ring_prod__submit(&port.tx, want);
            submitted += want;
        }
        kick_tx(&port);
    }
    /* What is still on the ring is sent, or counted as not sent. */
    for (double until = now() + 0.2; completed < submitted && now() < until;) {
        kick_tx(&port);
        completed += take_completed(&port, NULL, RING);
    }
    sender->sent = completed;
    sender->seconds = now() - start;
    xsk_socket__delete(port.socket);
    xsk_umem__delete(umem);
    return NULL;
}

static void usage(void) {
    fprintf(stderr, "usage: xdp_generator IF DST_MAC [--size 60..1514] [--rate PPS] [--seconds S] [--queues 1..16]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 3 || (argc - 3) % 2) {
        usage();
    }
    interface = argv[1];
    if (sscanf(argv[2], "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &macs[0], &macs[1], &macs[2],
               &macs[3], &macs[4], &macs[5]) != 6) {
        usage();
    }
    for (int i = 3; i < argc; i += 2) {
        char *end;
        double value = strtod(argv[i + 1], &end);
        if (*end || !(value >= 0 && value < 1e9)) {
            usage();
        }
        if (!strcmp(argv[i], "--size")) {
            size = (unsigned) value;
        } else if (!strcmp(argv[i], "--rate")) {
            rate = value;
        } else if (!strcmp(argv[i], "--seconds")) {
            seconds = value;
        } else if (!strcmp(argv[i], "--queues")) {
            queues = (unsigned) value;
        } else {
            usage();
        }
    }
    if (size < 60 || size > 1514 || queues < 1 || queues > MAX_QUEUES || seconds <= 0) {
        usage();
    }
    struct ifreq request = {0};
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    snprintf(request.ifr_name, sizeof request.ifr_name, "%s", interface);
    if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &request)) {
        fprintf(stderr, "xdp_generator: no interface %s\n", interface);
        return 2;
    }
    memcpy(macs + ETH_ALEN, request.ifr_hwaddr.sa_data, ETH_ALEN);
    close(fd);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    struct sender senders[MAX_QUEUES];
    for (unsigned q = 0; q < queues; q++) {
        senders[q] = (struct sender) {.queue = q};
        pthread_create(&senders[q].thread, NULL, send_queue, &senders[q]);
    }
    unsigned long long sent = 0;
    double elapsed = 0;
    for (unsigned q = 0; q < queues; q++) {
        pthread_join(senders[q].thread, NULL);
        sent += senders[q].sent;
        elapsed = elapsed > senders[q].seconds ? elapsed : senders[q].seconds;
    }
    printf("sent %llu frames in %.3f s: %.0f frames/s\n", sent, elapsed, (double) sent / elapsed);
    return 0;
}
