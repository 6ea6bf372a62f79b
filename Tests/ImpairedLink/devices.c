// The TUN devices and the two network namespaces: made with unshare, configured with SIOCSIF* ioctls.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <netinet/in.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "link.h"

static int open_tun(const char *name) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) skip("open /dev/net/tun");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) skip("TUNSETIFF");
    return fd;
}

int set_flags(int sock, const char *name, int up) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0) return -1;
    if (up) ifr.ifr_flags |= IFF_UP | IFF_RUNNING; else ifr.ifr_flags &= ~IFF_UP;
    return ioctl(sock, SIOCSIFFLAGS, &ifr);
}

int set_mtu(int sock, const char *name, int mtu) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    ifr.ifr_mtu = mtu;
    return ioctl(sock, SIOCSIFMTU, &ifr);
}

static void configure(int sock, const char *name, const char *address) {
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
    sin->sin_family = AF_INET;
    inet_pton(AF_INET, address, &sin->sin_addr);
    if (ioctl(sock, SIOCSIFADDR, &ifr) < 0) skip("SIOCSIFADDR");
    inet_pton(AF_INET, "255.255.255.0", &sin->sin_addr);
    if (ioctl(sock, SIOCSIFNETMASK, &ifr) < 0) skip("SIOCSIFNETMASK");
    if (set_flags(sock, name, 1) < 0) skip("SIOCSIFFLAGS");
    if (set_flags(sock, "lo", 1) < 0) skip("SIOCSIFFLAGS lo");
}

// Makes a namespace, its TUN device and its control socket; returns the TUN fd.
int make_namespace(const char *name, const char *address, int *ns_fd, int *ctl_fd) {
    if (unshare(CLONE_NEWNET) < 0) skip("unshare(CLONE_NEWNET)");
    *ns_fd = open("/proc/self/ns/net", O_RDONLY);  // not O_CLOEXEC: `nsenter` children find it by /proc/PID/fd
    if (*ns_fd < 0) skip("open /proc/self/ns/net");
    *ctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (*ctl_fd < 0) skip("socket");
    int tun = open_tun(name);
    configure(*ctl_fd, name, address);
    return tun;
}
