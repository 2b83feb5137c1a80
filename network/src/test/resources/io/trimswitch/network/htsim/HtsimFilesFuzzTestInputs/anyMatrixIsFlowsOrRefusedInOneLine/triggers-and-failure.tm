Nodes 16
Connections 5
Triggers 3
Failures 1
0->1 id 1 start 0 size 40000 send_done_trigger 1 prio 2
2->3 id 2 trigger 1 size 40000 recv_done_trigger 2
4->5 id 3 start 0 msg size 40000 recv_done_trigger 2
6->7 id 4 trigger 2 size 40000 recv_done_trigger 3
8->9 id 5 msg 3 trigger 3 size 40000
trigger id 1 oneshot
trigger id 2 barrier count 2
trigger id 3 multishot
failure switch_type AGG switch_id 1 link_id 0
