-- 009: what an NCCL log and a perftest output say beyond the fields 001
-- kept.  nccl_events.detail: an async event's text ("local catastrophic
-- error": IBV_EVENT_DEVICE_FATAL), a failing verbs call ("ibv_create_qp")
-- or a GPU's busId ("1c000"; "cudaDev N" when NCCL printed none), for the
-- kinds async, verbs_fail and gpu (port: the async event's port, the
-- GPU's cudaDev).  perftest_results.error: the first error line of a run
-- that failed ("Couldn't allocate MR", "Failed to modify QP 1399 to RTR",
-- "Couldn't connect to 192.168.125.211:18515"), NULL when it did not.
ALTER TABLE nccl_events ADD COLUMN detail TEXT;
ALTER TABLE perftest_results ADD COLUMN error TEXT;
