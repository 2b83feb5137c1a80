# Sourced, after common.sh, by the end-to-end scripts whose hosts reach the switch through vxlan: build_vxlan_hosts
# makes the switch's namespace $SW and HOSTS hosts in namespaces ${TAG}h1..${TAG}hHOSTS. Host i is wired by a veth
# (172.31.i.2, the switch's end 172.31.i.1) and has a vxlan interface vx0 (10.9.0.i/24, VNI 42) to the switch's UDP
# port 4789+i: switch port i-1. Inner MTU 1450 on the veth's 1500 bytes.
build_vxlan_hosts() {
    local i ns
    add_namespace "$SW"
    for i in $(seq 1 "$HOSTS"); do
        ns="${TAG}h$i"
        add_namespace "$ns"
        ip link add "${TAG}v$i" type veth peer name eth0 netns "$ns"
        ip link set "${TAG}v$i" netns "$SW"
        ip netns exec "$SW" ip addr add "172.31.$i.1/24" dev "${TAG}v$i"
        ip netns exec "$SW" ip link set "${TAG}v$i" up
        ip netns exec "$ns" ip addr add "172.31.$i.2/24" dev eth0
        ip netns exec "$ns" ip link set eth0 up
        ip netns exec "$ns" ip link add vx0 type vxlan id 42 remote "172.31.$i.1" local "172.31.$i.2" dstport $((4789 + i)) nolearning
        ip netns exec "$ns" ip addr add "10.9.0.$i/24" dev vx0
        ip netns exec "$ns" ip link set vx0 up
        # Relayed by a userspace switch, frames keep whatever checksums the sender left to offload.
        ip netns exec "$ns" ethtool -K vx0 tx off >/dev/null
    done
}

# The switch's ports for those hosts, as YAML list items: port i-1 binds UDP 4789+i and sends to host i; the port of
# host $1 (if given) runs at $2 Gb/s.
vxlan_ports_yaml() {
    local i
    for i in $(seq 1 "$HOSTS"); do
        printf '  - bind: 0.0.0.0:%d\n    remote: 172.31.%d.2:%d\n' $((4789 + i)) "$i" $((4789 + i))
        if [ "$i" = "${1:-}" ]; then printf '    rateGbps: %s    # the incast receiver'"'"'s port\n' "$2"; fi
    done
}
