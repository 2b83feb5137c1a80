/*
 * The userspace limit for interface ports, as a baseline for bench/hosts/interface_bench.sh: a forwarder between two
 * interfaces that parses nothing and queues nothing. Per interface an AF_PACKET socket with a TPACKET_V2 receive ring
 * (slots for 64 KB offload frames, PACKET_VNET_HDR so that they pass whole), PACKET_QDISC_BYPASS and
 * PACKET_IGNORE_OUTGOING; frames go out of the other interface in one sendmmsg per batch. Idle: poll(), or with
 * --busy a spinning loop.
 *
 *   cc -O2 -o afpacket_forwarder afpacket_forwarder.c && ./afpacket_forwarder IF0 IF1 [--busy]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define SLOT_BYTES (17 * 4096)
#define SLOTS 256
#define BATCH 64
#define VNET_HDR_LEN 10

struct port {
    int fd;
    unsigned char *ring;
    unsigned next;
};

static volatile sig_atomic_t stop;

static void on_signal(int signal) {
    (void) signal;
    stop = 1;
}

static int option(int fd, int name, int value) {
    return setsockopt(fd, SOL_PACKET, name, &value, sizeof value);
}

static void open_port(struct port *port, const char *name) {
    unsigned index = if_nametoindex(name);
    if (index == 0) {
        fprintf(stderr, "afpacket_forwarder: no interface %s\n", name);
        exit(2);
    }
    port->fd = socket(AF_PACKET, SOCK_RAW, 0);
    struct tpacket_req request = {SLOT_BYTES, SLOTS, SLOT_BYTES, SLOTS};
    if (port->fd < 0 || option(port->fd, PACKET_VERSION, TPACKET_V2) || option(port->fd, PACKET_VNET_HDR, 1)
        || option(port->fd, PACKET_QDISC_BYPASS, 1) || option(port->fd, PACKET_IGNORE_OUTGOING, 1)
        || setsockopt(port->fd, SOL_PACKET, PACKET_RX_RING, &request, sizeof request)) {
        perror("afpacket_forwarder: socket");
        exit(2);
    }
    port->ring = mmap(NULL, (size_t) SLOT_BYTES * SLOTS, PROT_READ | PROT_WRITE, MAP_SHARED, port->fd, 0);
    struct sockaddr_ll address = {.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL), .sll_ifindex = (int) index};
    struct packet_mreq promiscuous = {.mr_ifindex = (int) index, .mr_type = PACKET_MR_PROMISC};
    if (port->ring == MAP_FAILED || bind(port->fd, (struct sockaddr *) &address, sizeof address)
        || setsockopt(port->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &promiscuous, sizeof promiscuous)) {
        perror("afpacket_forwarder: ring");
        exit(2);
    }
    port->next = 0;
}

/* Moves what waits on from's ring out of to, a batch per sendmmsg; returns how many frames it moved. */
static int forward(struct port *from, struct port *to) {
    struct mmsghdr messages[BATCH];
    struct iovec vectors[BATCH];
    struct tpacket2_hdr *taken[BATCH];
    int count = 0;
    while (count < BATCH) {
        struct tpacket2_hdr *slot = (struct tpacket2_hdr *) (from->ring + (size_t) from->next * SLOT_BYTES);
        if (!(__atomic_load_n(&slot->tp_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER)) {
            break;
        }
        vectors[count].iov_base = (unsigned char *) slot + slot->tp_mac - VNET_HDR_LEN;
        vectors[count].iov_len = slot->tp_snaplen + VNET_HDR_LEN;
        memset(&messages[count], 0, sizeof messages[count]);
        messages[count].msg_hdr.msg_iov = &vectors[count];
        messages[count].msg_hdr.msg_iovlen = 1;
        taken[count++] = slot;
        from->next = (from->next + 1) % SLOTS;
    }
    for (int sent = 0; sent < count;) {
        int now = sendmmsg(to->fd, messages + sent, (unsigned) (count - sent), MSG_DONTWAIT);
        sent += now > 0 ? now : 1;
    }
    for (int i = 0; i < count; i++) {
        __atomic_store_n(&taken[i]->tp_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
    }
    return count;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: afpacket_forwarder IF0 IF1 [--busy]\n");
        return 2;
    }
    int busy = argc > 3 && strcmp(argv[3], "--busy") == 0;
    struct port ports[2];
    open_port(&ports[0], argv[1]);
    open_port(&ports[1], argv[2]);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    struct pollfd waits[2] = {{ports[0].fd, POLLIN, 0}, {ports[1].fd, POLLIN, 0}};
    while (!stop) {
        int moved = forward(&ports[0], &ports[1]) + forward(&ports[1], &ports[0]);
        if (moved == 0 && !busy) {
            poll(waits, 2, 100);
        }
    }
    return 0;
}
