/* lwIP's options for phones_ppp (the host end of the emulated Pico W's PPP link): no OS, raw API,
 * IPv4 and TCP over PPP over a serial line, PPP as the server (it gives the chip its address). */
#ifndef PHONES_PPP_LWIPOPTS_H
#define PHONES_PPP_LWIPOPTS_H

#define NO_SYS 1
#define LWIP_SOCKET 0
#define LWIP_NETCONN 0
#define SYS_LIGHTWEIGHT_PROT 0
#define LWIP_IPV4 1
#define LWIP_IPV6 0
#define LWIP_TCP 1
#define LWIP_UDP 1
#define LWIP_ICMP 1
#define LWIP_DNS 0
#define LWIP_DHCP 0
#define LWIP_ARP 0
#define LWIP_ETHERNET 0
#define LWIP_NETIF_STATUS_CALLBACK 1
#define LWIP_NETIF_LINK_CALLBACK 1
#define LWIP_STATS 0

/* Memory: this end has a machine's worth; its own limits must never be what a figure measures. */
#define MEM_ALIGNMENT 8
#define MEM_SIZE (4 * 1024 * 1024)
#define MEMP_NUM_PBUF 256
#define MEMP_NUM_TCP_PCB 64
#define MEMP_NUM_TCP_PCB_LISTEN 4
#define MEMP_NUM_TCP_SEG 1024
#define PBUF_POOL_SIZE 256
#define TCP_MSS 1460
#define TCP_WND (16 * TCP_MSS)
#define TCP_SND_BUF (32 * TCP_MSS)
#define TCP_SND_QUEUELEN 256
#define LWIP_WND_SCALE 0
/* The phones' TCP: a phone (Linux, Android, iOS) sends a SYN again after 1 s (RFC 6298), not after
 * lwIP's 3 s, when the chip's five connections are all taken and it drops one. */
#define LWIP_TCP_RTO_TIME 1000

/* PPP over a serial line, as the server: no authentication, the addresses from this end. */
#define PPP_SUPPORT 1
#define PPPOS_SUPPORT 1
#define PPP_SERVER 1
#define PPP_IPV4_SUPPORT 1
#define PPP_IPV6_SUPPORT 0
#define PAP_SUPPORT 0
#define CHAP_SUPPORT 0
#define MSCHAP_SUPPORT 0
#define EAP_SUPPORT 0
#define CCP_SUPPORT 0
#define MPPE_SUPPORT 0
#define VJ_SUPPORT 1
#define PPP_INPROC_IRQ_SAFE 0
#ifndef PRINTPKT_SUPPORT
#define PRINTPKT_SUPPORT 0
#endif
#define PPP_NOTIFY_PHASE 0
/* No keep-alive probes of our own: the chip's time is the emulator's, and an idle link must cost
 * the chip nothing that a radio link would not. */
#define LCP_ECHOINTERVAL 0
/* When the chip hangs up (its box closes the link before a soft reset: sim_board.py), this end waits
 * one LCP timeout before it calls the link down (pico_sim.mjs then starts it afresh): 1 s, not lwIP's
 * 6, so that it listens again before the chip, back from its soft reset, opens the next link. */
#define FSM_DEFTIMEOUT 1

/* cc -DPHONES_PPP_DEBUG: PPP's negotiation on stderr (pico_sim.mjs prints it) */
#ifdef PHONES_PPP_DEBUG
#define LWIP_DEBUG 1
#define PPP_DEBUG LWIP_DBG_ON
void phones_ppp_diag(const char *fmt, ...); /* to stderr: stdout is the chip's serial line */
#define LWIP_PLATFORM_DIAG(x) do { phones_ppp_diag x; } while (0)
#else
#define PPP_DEBUG LWIP_DBG_OFF
#endif

#endif
