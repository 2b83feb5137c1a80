# Two rounds on htsim's default fat tree of 16 hosts: round 2 starts once all of round 1 has arrived (a barrier),
# and a last transfer starts when host 0's second flow is done (a one-shot trigger).
Nodes 16
Connections 9
Triggers 2
0->4 id 1 start 0 size 200000 recv_done_trigger 1
4->8 id 2 start 0 size 200000 recv_done_trigger 1
8->12 id 3 start 0 size 200000 recv_done_trigger 1
12->0 id 4 start 0 size 200000 recv_done_trigger 1
0->8 id 5 trigger 1 size 200000 send_done_trigger 2
4->12 id 6 trigger 1 size 200000
8->0 id 7 trigger 1 size 200000
12->4 id 8 trigger 1 size 200000
1->2 id 9 trigger 2 size 50000
trigger id 1 barrier count 4
trigger id 2 oneshot
