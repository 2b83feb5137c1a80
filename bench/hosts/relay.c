/*
 * The userspace baseline of bench/hosts/host_bench.sh: a two-port UDP relay in one thread with
 * non-blocking sockets, reading and sending in batches of 64 (recvmmsg/sendmmsg). What port A receives
 * goes to host B's address and the other way round, untouched: no parsing, no queues, no trimming.
 *
 *   relay BIND_A_IP PORT_A HOST_A_IP BIND_B_IP PORT_B HOST_B_IP
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BATCH 64
#define FRAME 2100

static volatile sig_atomic_t running = 1;
static void stop(int signal) { (void) signal; running = 0; }

static int open_port(const char *ip, int port) {
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    int size = 4 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, ip, &address.sin_addr);
    if (fd < 0 || bind(fd, (struct sockaddr *) &address, sizeof address) != 0) {
        perror("relay: bind");
        exit(2);
    }
    return fd;
}

static char frames[BATCH][FRAME];
static struct iovec vectors[BATCH];
static struct mmsghdr messages[BATCH];

/* Everything waiting on one socket goes to the other side's host; returns datagrams moved. */
static int relay(int from, int to, struct sockaddr_in *host) {
    for (int i = 0; i < BATCH; i++) {
        vectors[i].iov_base = frames[i];
        vectors[i].iov_len = FRAME;
        memset(&messages[i].msg_hdr, 0, sizeof messages[i].msg_hdr);
        messages[i].msg_hdr.msg_iov = &vectors[i];
        messages[i].msg_hdr.msg_iovlen = 1;
    }
    int received = recvmmsg(from, messages, BATCH, MSG_DONTWAIT, NULL);
    if (received <= 0) {
        return 0;
    }
    for (int i = 0; i < received; i++) {
        vectors[i].iov_len = messages[i].msg_len;
        messages[i].msg_hdr.msg_name = host;
        messages[i].msg_hdr.msg_namelen = sizeof *host;
    }
    for (int sent = 0; sent < received;) {
        int n = sendmmsg(to, messages + sent, received - sent, 0);
        if (n <= 0) {
            break;
        }
        sent += n;
    }
    return received;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: relay BIND_A_IP PORT_A HOST_A_IP BIND_B_IP PORT_B HOST_B_IP\n");
        return 2;
    }
    signal(SIGTERM, stop);
    signal(SIGINT, stop);
    int a = open_port(argv[1], atoi(argv[2]));
    int b = open_port(argv[4], atoi(argv[5]));
    struct sockaddr_in host_a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[2]))};
    struct sockaddr_in host_b = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[5]))};
    inet_pton(AF_INET, argv[3], &host_a.sin_addr);
    inet_pton(AF_INET, argv[6], &host_b.sin_addr);
    struct pollfd ready[2] = {{.fd = a, .events = POLLIN}, {.fd = b, .events = POLLIN}};
    printf("relay: running\n");
    fflush(stdout);
    while (running) {
        if (poll(ready, 2, 100) <= 0) {
            continue;
        }
        while (relay(a, b, &host_b) + relay(b, a, &host_a) > 0) {
        }
    }
    return 0;
}
