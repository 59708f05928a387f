/* phones_ppp: the host end of the emulated Pico W's network link (make sim-pico, make bench-pico).
 *
 * The emulated board has no CYW43439, so its firmware brings up network.PPP over UART0 instead of
 * the Wi-Fi hotspot, and the chip's own lwIP carries the phones' TCP. This program is the other end
 * of that serial line: lwIP (2.1.3: its sources in lwip/, the headers of Debian's liblwip-dev;
 * ../phones_link.py builds it) with no OS, as a PPP server that gives the chip its address, and a
 * TCP relay for the phones. Each phone's connection to 127.0.0.1:PORT is accepted here with the
 * kernel's sockets and opened again with lwIP's raw TCP API to the chip's port 80 over PPP, so what
 * reaches the chip is real TCP/IP in real PPP frames: handshakes, windows, retransmissions, FINs,
 * and the chip's own connection limit (a SYN it has no room for goes unanswered and is sent again).
 *
 * pico_sim.mjs starts it, with pipes (nothing here touches the kernel's network but the phones'
 * listening socket on the loopback):
 *   stdin:  messages from the emulator, each: kind (1 byte), the chip's time in us (8 bytes, big
 *           endian), length (2 bytes, big endian), then `length` bytes:
 *             'D' the bytes the chip sent on its UART TX      'T' time only (lwIP's timers run on it)
 *   stdout: the bytes for the chip's UART RX (the emulator paces them at the baud rate)
 *   stderr: lines for the emulator: "phones-ppp: phones on PORT", "phones-ppp: link up CHIP" and
 *           "phones-ppp: link down", "open N" whenever the phones' open connections change, and a record of each phone's connection when it ends,
 *           "rec {json}" with its times in the chip's ms (accepted, opened: the chip's SYN-ACK, data:
 *           the phone's first byte sent on, answer: the chip's first byte, closed: its FIN), and
 *           "at US", the chip's time in us up to which the emulator's messages have been taken in.
 * lwIP's clock (sys_now) is the chip's: its retransmission and PPP timers count emulated time, as
 * the chip's do, however much slower than real time the emulator runs.
 *
 *   phones_ppp [--port 8091] [--chip 192.168.4.1] [--host 192.168.4.2]
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#undef TCP_MSS /* the kernel's socket option, not lwIP's segment size */
#undef htons /* lwIP's own byte-order functions from here on */
#undef ntohs
#undef htonl
#undef ntohl

#include "lwip/init.h"
#include "lwip/ip4_addr.h"
#include "lwip/netif.h"
#include "lwip/tcp.h"
#include "lwip/timeouts.h"
#include "netif/ppp/ppp.h"
#include "netif/ppp/pppos.h"

#define MAX_CONNS 64
#define READ_CHUNK 4096

enum { WAITING, CONNECTING, OPEN };

typedef struct {
    int used, fd, state, phone_eof, chip_eof;
    struct tcp_pcb *pcb;
    struct pbuf *to_phone; /* the chip's bytes the phone has not taken yet */
    uint16_t to_phone_off;
    unsigned port;
    double accepted_ms, opened_ms, data_ms, answer_ms, closed_ms;
    unsigned long bytes_in, bytes_out;
} conn_t;

static conn_t conns[MAX_CONNS];
static uint64_t chip_us;
static ppp_pcb *ppp;
static struct netif ppp_netif;
static int link_up, relisten;
static ip4_addr_t chip_addr, host_addr;

u32_t sys_now(void) { return (u32_t)(chip_us / 1000); }
u32_t sys_jiffies(void) { return (u32_t)chip_us; }
unsigned int lwip_port_rand(void) { return (unsigned int)rand(); }
static double now_ms(void) { return chip_us / 1000.0; }

#ifdef PHONES_PPP_DEBUG
#include <stdarg.h>
void phones_ppp_diag(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ppp %.1f: ", now_ms());
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}
#endif

static void write_all(int fd, const void *data, size_t len) {
    const uint8_t *p = data;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            exit(0); /* the emulator has gone */
        }
        p += n;
        len -= (size_t)n;
    }
}

/* ---- the PPP link ---------------------------------------------------------------------------- */
static u32_t ppp_output(ppp_pcb *pcb, const void *data, u32_t len, void *ctx) {
    (void)pcb; (void)ctx;
#ifdef PHONES_PPP_DEBUG
    fprintf(stderr, "ppp out %.3f:", now_ms());
    for (u32_t i = 0; i < len; i++) fprintf(stderr, " %02x", ((const uint8_t *)data)[i]);
    fprintf(stderr, "\n");
#endif
    write_all(1, data, len);
    return len;
}

static void connect_waiting(void);

static void ppp_status(ppp_pcb *pcb, int err, void *ctx) {
    (void)pcb; (void)ctx;
    if (err == PPPERR_NONE) {
        link_up = 1;
        fprintf(stderr, "phones-ppp: link up %s\n", ip4addr_ntoa(netif_ip4_gw(&ppp_netif)));
        connect_waiting();
    } else {
        if (link_up) fprintf(stderr, "phones-ppp: link down (%d)\n", err);
        link_up = 0;
        relisten = 1; /* the PCB is dead now: listen again from the main loop */
    }
}

static void ppp_start(void) {
    ppp_set_ipcp_ouraddr(ppp, &host_addr);
    ppp_set_ipcp_hisaddr(ppp, &chip_addr);
    ppp_set_silent(ppp, 1); /* the chip speaks first: nothing goes down the line before it listens */
    /* built without PAP and CHAP: the chip asks for no authentication, and is asked for none */
    if (ppp_listen(ppp) != ERR_OK) fprintf(stderr, "phones-ppp: ppp_listen failed\n");
}

/* ---- the phones' connections ------------------------------------------------------------------ */
static void record(conn_t *c, const char *end) {
    fprintf(stderr,
            "rec {\"port\": %u, \"accepted_ms\": %.3f, \"opened_ms\": %.3f, \"data_ms\": %.3f, "
            "\"answer_ms\": %.3f, \"closed_ms\": %.3f, \"bytes_in\": %lu, \"bytes_out\": %lu, \"end\": \"%s\"}\n",
            c->port, c->accepted_ms, c->opened_ms, c->data_ms, c->answer_ms, c->closed_ms, c->bytes_in,
            c->bytes_out, end);
}

static void count_open(void) {
    int n = 0;
    for (int i = 0; i < MAX_CONNS; i++) n += conns[i].used;
    fprintf(stderr, "open %d\n", n);
}

static void conn_free(conn_t *c, const char *end) {
    if (c->closed_ms < 0) c->closed_ms = now_ms();
    record(c, end);
    if (c->pcb) {
        tcp_arg(c->pcb, NULL);
        tcp_recv(c->pcb, NULL);
        tcp_err(c->pcb, NULL);
        if (tcp_close(c->pcb) != ERR_OK) tcp_abort(c->pcb);
        c->pcb = NULL;
    }
    if (c->to_phone) pbuf_free(c->to_phone);
    close(c->fd);
    memset(c, 0, sizeof(*c));
    count_open();
}

static err_t on_connected(void *arg, struct tcp_pcb *pcb, err_t err) {
    conn_t *c = arg;
    (void)pcb; (void)err;
    if (c) {
        c->state = OPEN;
        c->opened_ms = now_ms();
    }
    return ERR_OK;
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err) {
    conn_t *c = arg;
    (void)err;
    if (!c) {
        if (p) pbuf_free(p);
        tcp_abort(pcb);
        return ERR_ABRT;
    }
    if (!p) {
        c->chip_eof = 1;
        return ERR_OK;
    }
    if (c->answer_ms < 0) c->answer_ms = now_ms();
    c->bytes_out += p->tot_len;
    if (c->to_phone) pbuf_cat(c->to_phone, p);
    else { c->to_phone = p; c->to_phone_off = 0; }
    return ERR_OK;
}

static void on_err(void *arg, err_t err) {
    conn_t *c = arg;
    if (!c) return;
    c->pcb = NULL; /* lwIP has freed it */
    conn_free(c, err == ERR_RST ? "reset by the chip" : "aborted");
}

static void conn_connect(conn_t *c) {
    c->pcb = tcp_new();
    if (!c->pcb) { conn_free(c, "no pcb"); return; }
#if LWIP_VERSION < 0x02020000
    /* lwIP 2.1 starts every PCB at a 3 s RTO and knows no LWIP_TCP_RTO_TIME: set it as 2.2 does */
    c->pcb->rto = c->pcb->sv = LWIP_TCP_RTO_TIME / TCP_SLOW_INTERVAL;
#endif
    tcp_arg(c->pcb, c);
    tcp_recv(c->pcb, on_recv);
    tcp_err(c->pcb, on_err);
    tcp_nagle_disable(c->pcb);
    c->state = CONNECTING;
    if (tcp_connect(c->pcb, &chip_addr, 80, on_connected) != ERR_OK) conn_free(c, "no route");
}

static void connect_waiting(void) {
    for (int i = 0; i < MAX_CONNS; i++)
        if (conns[i].used && conns[i].state == WAITING) conn_connect(&conns[i]);
}

static void accept_phone(int lfd) {
    struct sockaddr_in a;
    socklen_t alen = sizeof(a);
    int fd = accept(lfd, (struct sockaddr *)&a, &alen);
    if (fd < 0) return;
    conn_t *c = NULL;
    for (int i = 0; i < MAX_CONNS && !c; i++)
        if (!conns[i].used) c = &conns[i];
    if (!c) { close(fd); return; }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    memset(c, 0, sizeof(*c));
    c->used = 1;
    c->fd = fd;
    c->port = ntohs(a.sin_port);
    c->accepted_ms = now_ms();
    c->opened_ms = c->data_ms = c->answer_ms = c->closed_ms = -1;
    c->state = WAITING;
    count_open();
    if (link_up) conn_connect(c);
}

/* The chip's bytes to the phone; lwIP's window opens as the phone takes them. */
static void flush_to_phone(conn_t *c) {
    while (c->to_phone) {
        struct pbuf *p = c->to_phone;
        ssize_t n = write(c->fd, (uint8_t *)p->payload + c->to_phone_off, p->len - c->to_phone_off);
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) return;
            c->phone_eof = 1; /* the phone has gone: drop what the chip still sends */
            n = p->len - c->to_phone_off;
        }
        if (c->pcb) tcp_recved(c->pcb, (u16_t)n);
        c->to_phone_off += (uint16_t)n;
        if (c->to_phone_off == p->len) {
            c->to_phone = p->next;
            if (p->next) pbuf_ref(p->next);
            pbuf_free(p);
            c->to_phone_off = 0;
        }
    }
}

/* The phone's bytes to the chip, as far as lwIP's send buffer has room. */
static void read_phone(conn_t *c) {
    static uint8_t buf[READ_CHUNK];
    size_t room = tcp_sndbuf(c->pcb);
    if (room > sizeof(buf)) room = sizeof(buf);
    ssize_t n = read(c->fd, buf, room);
    if (n < 0) {
        if (errno == EAGAIN || errno == EINTR) return;
        tcp_arg(c->pcb, NULL);
        tcp_abort(c->pcb);
        c->pcb = NULL;
        conn_free(c, "reset by the phone");
        return;
    }
    if (n == 0) {
        c->phone_eof = 1;
        tcp_shutdown(c->pcb, 0, 1); /* the phone's FIN, on to the chip */
        return;
    }
    if (c->data_ms < 0) c->data_ms = now_ms();
    c->bytes_in += (unsigned long)n;
    tcp_write(c->pcb, buf, (u16_t)n, TCP_WRITE_FLAG_COPY);
    tcp_output(c->pcb);
}

/* ---- the emulator's messages ------------------------------------------------------------------- */
static uint8_t in[65536 + 16];
static size_t in_len;

static void from_emulator(void) {
    ssize_t n = read(0, in + in_len, sizeof(in) - in_len);
    if (n <= 0) exit(0);
    in_len += (size_t)n;
    size_t at = 0;
    while (in_len - at >= 11) {
        uint8_t *m = in + at;
        size_t len = ((size_t)m[9] << 8) | m[10];
        if (in_len - at < 11 + len) break;
        uint64_t t = 0;
        for (int i = 1; i <= 8; i++) t = (t << 8) | m[i];
        if (t > chip_us) chip_us = t;
        if (m[0] == 'D') {
#ifdef PHONES_PPP_DEBUG
            fprintf(stderr, "ppp in %.3f:", now_ms());
            for (size_t i = 0; i < len; i++) fprintf(stderr, " %02x", m[11 + i]);
            fprintf(stderr, "\n");
#endif
            pppos_input(ppp, m + 11, (int)len);
        }
        sys_check_timeouts();
        at += 11 + len;
    }
    memmove(in, in + at, in_len - at);
    in_len -= at;
    /* The chip's time this end has caught up with: the emulator runs the chip at most a little
     * ahead of it, so this end's ACKs and timers keep the chip's pace on a busy host too. */
    static uint64_t told_us;
    if (chip_us != told_us) {
        told_us = chip_us;
        fprintf(stderr, "at %llu\n", (unsigned long long)chip_us);
    }
}

int main(int argc, char **argv) {
    int port = 8091;
    const char *chip = "192.168.4.1", *host = "192.168.4.2";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--chip")) chip = argv[i + 1];
        else if (!strcmp(argv[i], "--host")) host = argv[i + 1];
        else { fprintf(stderr, "usage: phones_ppp [--port N] [--chip ADDR] [--host ADDR]\n"); return 2; }
    }
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stderr, NULL, _IOLBF, 0);
    ip4addr_aton(chip, &chip_addr);
    ip4addr_aton(host, &host_addr);

    int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int tries = 0; /* after a reset of the chip, the last run's process may still hold the port */
    while (bind(lfd, (struct sockaddr *)&a, sizeof(a)) && errno == EADDRINUSE && ++tries < 300) usleep(10000);
    if ((tries && tries >= 300) || listen(lfd, 64)) {
        fprintf(stderr, "phones-ppp: cannot listen on 127.0.0.1:%d: %s\n", port, strerror(errno));
        return 1;
    }
    socklen_t alen = sizeof(a);
    getsockname(lfd, (struct sockaddr *)&a, &alen);
    fprintf(stderr, "phones-ppp: phones on %d\n", ntohs(a.sin_port));

    lwip_init();
    ppp = pppos_create(&ppp_netif, ppp_output, ppp_status, NULL);
    ppp_start();

    struct pollfd fds[2 + MAX_CONNS];
    conn_t *of[2 + MAX_CONNS];
    for (;;) {
        if (relisten && ppp->phase == PPP_PHASE_DEAD) { relisten = 0; ppp_start(); }
        for (int i = 0; i < MAX_CONNS; i++) {
            conn_t *c = &conns[i];
            if (!c->used) continue;
            flush_to_phone(c);
            if (c->chip_eof && !c->to_phone) conn_free(c, "closed by the chip");
            else if (c->phone_eof && !c->pcb) conn_free(c, "closed");
        }
        int n = 0;
        fds[n].fd = 0; fds[n].events = POLLIN; of[n++] = NULL;
        fds[n].fd = lfd; fds[n].events = POLLIN; of[n++] = NULL;
        for (int i = 0; i < MAX_CONNS; i++) {
            conn_t *c = &conns[i];
            if (!c->used) continue;
            short ev = 0;
            if (c->to_phone) ev |= POLLOUT;
            if (c->state == OPEN && c->pcb && !c->phone_eof && tcp_sndbuf(c->pcb) > 0
                && tcp_sndqueuelen(c->pcb) < TCP_SND_QUEUELEN / 2) ev |= POLLIN;
            if (!ev) continue;
            fds[n].fd = c->fd; fds[n].events = ev; of[n++] = c;
        }
        if (poll(fds, (nfds_t)n, 1000) < 0) {
            if (errno == EINTR) continue;
            return 1;
        }
        if (fds[0].revents) from_emulator();
        if (fds[1].revents & POLLIN) accept_phone(lfd);
        for (int i = 2; i < n; i++) {
            conn_t *c = of[i];
            if (!c->used || c->fd != fds[i].fd) continue;
            if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) && (fds[i].events & POLLIN) && c->pcb) read_phone(c);
        }
        sys_check_timeouts();
    }
}
