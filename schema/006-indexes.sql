-- 006: indexes the queries by bundle and by node were missing.  Every
-- evidence table is read one bundle at a time (the checks, the history's
-- settings, the fleet fingerprint), and these three had no index that
-- starts with bundle_id: each such read scanned the whole table, so a
-- fleet's load slowed with every bundle already in it.  bundles by node:
-- a node's snapshots in time order (history, diff, the report's newest
-- bundle of each node).
CREATE INDEX IF NOT EXISTS limits_bundle ON limits (bundle_id);
CREATE INDEX IF NOT EXISTS addresses_bundle ON addresses (bundle_id);
CREATE INDEX IF NOT EXISTS environment_bundle ON environment (bundle_id);
CREATE INDEX IF NOT EXISTS bundles_node ON bundles (node_id, collected_at);
