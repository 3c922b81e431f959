-- The reference's side of CampaignListBenchmark's data, in its schema (psql -v campaigns=100): one organization,
-- user, API key (raw key dgr_bench_key_0001) and workflow; one telephony configuration; :campaigns paused campaigns
-- with retry, schedule and circuit-breaker settings and 3 log entries each, and 20 queued runs each, 12 of them
-- processed (the list's executed_count 12 and total_queued_count 20, as ours counts 12 calls and 20 contacts).
INSERT INTO organizations (id, provider_id, created_at) VALUES (1, 'bench-org-1', now());
INSERT INTO users (id, provider_id, created_at, is_superuser, selected_organization_id, email)
  VALUES (1, 'bench-user-1', now(), false, 1, 'bench@example.com');
INSERT INTO organization_users (user_id, organization_id) VALUES (1, 1);
INSERT INTO api_keys (organization_id, name, key_hash, key_prefix, is_active, created_by, created_at)
  VALUES (1, 'bench', encode(sha256(convert_to('dgr_bench_key_0001', 'UTF8')), 'hex'), 'dgr_benc', true, 1, now());
-- the organization counts as provisioned: its auth path reads this instead of provisioning over the network
INSERT INTO organization_configurations (organization_id, key, value, created_at, updated_at)
  VALUES (1, 'ORGANIZATION_BOOTSTRAP', '{"status": "completed"}', now(), now());
INSERT INTO workflows (id, name, workflow_definition, created_at, user_id, template_context_variables,
                       call_disposition_codes, organization_id, status, workflow_configurations, workflow_uuid)
  VALUES (1, 'Benchmark flow', '{}', now(), 1, '{}', '{}', 1, 'active', '{}', 'bench-wf-0001');
INSERT INTO telephony_configurations (id, organization_id, name, provider, credentials, is_default_outbound, inactive,
                                      created_at, updated_at)
  VALUES (1, 1, 'Bench trunk', 'twilio', '{}', true, false, now(), now());
SELECT setval('organizations_id_seq', 1), setval('users_id_seq', 1), setval('workflows_id_seq', 1),
       setval('telephony_configurations_id_seq', 1);

INSERT INTO campaigns (name, organization_id, workflow_id, created_by, telephony_configuration_id, source_type,
                       source_id, state, total_rows, processed_rows, failed_rows, rate_limit_per_second, max_retries,
                       source_sync_status, retry_config, orchestrator_metadata, logs, created_at, started_at)
SELECT 'Campaign ' || i, 1, 1, 1, 1, 'csv', 'campaigns/1/c' || i || '.csv', 'paused', 1000, 250, 0, 1, 0, 'completed',
       '{"enabled":true,"max_retries":2,"retry_delay_seconds":120,"retry_on_busy":true,"retry_on_no_answer":true,"retry_on_voicemail":false}',
       '{"max_concurrency":10,"schedule_config":{"enabled":true,"timezone":"Europe/Berlin","slots":[{"day_of_week":0,"start_time":"09:00","end_time":"17:00"},{"day_of_week":1,"start_time":"09:00","end_time":"17:00"}]},"circuit_breaker":{"enabled":true,"failure_threshold":0.5,"window_seconds":120,"min_calls_in_window":5}}',
       (SELECT json_agg(json_build_object('ts', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'),
               'level', 'warning', 'event', 'circuit_breaker_tripped', 'message', 'Failure rate over threshold',
               'details', json_build_object('failure_rate', 0.6, 'window_seconds', 120)))
          FROM generate_series(1, 3)),
       now() - make_interval(mins => :campaigns - i), now()
  FROM generate_series(0, :campaigns - 1) AS i;

INSERT INTO queued_runs (campaign_id, source_uuid, context_variables, state, created_at, processed_at, retry_count)
SELECT c.id, 'row-' || (a + 2), json_build_object('phone_number', '+1415555' || (1000 + a)),
       CASE WHEN a % 5 < 2 THEN 'queued' ELSE 'processed' END::queued_run_state, now(),
       CASE WHEN a % 5 < 2 THEN NULL ELSE now() END, 0
  FROM campaigns c, generate_series(0, 19) AS a;

ANALYZE;
