/* eslint-disable */
// Generated from rest/openapi/*.yaml by `npm run schema:print` (openapi-typescript). Do not edit by hand.

export interface paths {
  '/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Exchange email and password for a session JWT
     * @description Also sets the httpOnly `ops_session` cookie. The JWT lasts about an hour and is refreshed silently (header `X-Refreshed-Token`, or a new cookie) while the session lasts (7 days).
     */
    post: operations['login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/logout': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** End the current session (server-side) */
    post: operations['logout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The calling user */
    get: operations['getMe'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/tokens': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The caller's personal access tokens (never the cleartext) */
    get: operations['listTokens'];
    put?: never;
    /**
     * Mint a personal access token
     * @description The cleartext `token` is in this response only. Omit `expires_in_days` (or send null) for a token that never expires. Admins may pass `user_id` of a service user to mint on its behalf.
     */
    post: operations['createToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/tokens/{tokenId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tokenId: components['parameters']['TokenId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Revoke a token (effective immediately; reactivatable for 7 days) */
    delete: operations['revokeToken'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/tokens/{tokenId}/reactivate': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tokenId: components['parameters']['TokenId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Undo a revocation made less than 7 days ago */
    post: operations['reactivateToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/tokens/{tokenId}/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tokenId: components['parameters']['TokenId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mint a replacement token; the old one keeps working for 24 hours */
    post: operations['rotateToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alertmanager/api/v2/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tenant's live alerts
     * @description `filter` takes matchers in Alertmanager's syntax (`alertname="Foo"`, or `{a="b",c=~"d.*"}`); `silenced=false`
     *     leaves out alerts a silence or maintenance window mutes, `inhibited=false` those an inhibition rule mutes
     *     (`status.inhibitedBy` names the inhibiting alert's id). `receiver` and `unprocessed` are accepted and do
     *     not filter yet.
     */
    get: operations['alertmanagerGetAlerts'];
    put?: never;
    /**
     * Post alerts (Prometheus sends here)
     * @description Authenticated with the tenant's ingest key as `Authorization: Bearer <key>`. Each alert becomes an event
     *     (`alertmanager.firing` / `alertmanager.resolved`, source `alertmanager-api`). At most 1000 alerts per request.
     */
    post: operations['alertmanagerPostAlerts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alertmanager/api/v2/silences': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every silence, newest first */
    get: operations['alertmanagerGetSilences'];
    put?: never;
    /**
     * Create a silence, or change one by id
     * @description With `id`, changes that silence; an expired one is replaced by a new silence, as Alertmanager does. An empty
     *     `comment` is recorded as "Created through the Alertmanager API without a comment.".
     */
    post: operations['alertmanagerPostSilences'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alertmanager/api/v2/silence/{silenceId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    /** One silence */
    get: operations['alertmanagerGetSilence'];
    put?: never;
    post?: never;
    /**
     * Expire a silence
     * @description 409 `SILENCE_EXPIRED` when it has already ended.
     */
    delete: operations['alertmanagerDeleteSilence'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alertmanager/api/v2/status': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Status as amtool reads it
     * @description No cluster (`disabled`), version 0.25.0 (the API level served), no configuration text.
     */
    get: operations['alertmanagerGetStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tenant's alerts, newest first
     * @description Answered as `{"items": [...]}` (the one shape for lists of domain objects). No cursor: narrow the
     *     filters instead (GraphQL `alerts` is the paginated connection). Out-of-range values are a 422.
     *     Alert rules are managed over GraphQL (`createAlertRule`, `alertRules`, …).
     */
    get: operations['listAlerts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    /** One alert with its latest events (20), rule, assignee, maintenance window and timeline */
    get: operations['getAlert'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/acknowledge': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Acknowledge the alert and assign it to the caller
     * @description States (DESIGN.md): `open → acknowledged → resolved`; `snoozed` until a time, then `open` again.
     *     Acknowledge is allowed from `open` and `snoozed` (ending the snooze); from any other state it is a
     *     409 whose detail names the current state and the allowed actions.
     */
    post: operations['acknowledgeAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/snooze': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Snooze the alert for a duration or until a time; it reopens by itself then
     * @description Send exactly one of `duration` (seconds as a number, or a string such as `"30s"`, `"15m"`, `"2h"`,
     *     `"1d"`, `"1h30m"`, or ISO-8601 `"PT1H"`) or `until` (an ISO time in the future). Up to 100 years (3,153,600,000 seconds).
     *     Allowed from `open`, `acknowledged` and `snoozed` (a new end time); from `resolved` it is a 409.
     *     When the time passes the service reopens the alert (`snoozed → open`) within about a second.
     */
    post: operations['snoozeAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resolve the alert
     * @description Allowed from `open`, `acknowledged` and `snoozed`. A later matching event opens a new alert. Resolving a resolved alert is a 409.
     */
    post: operations['resolveAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/assign': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Assign the alert to a user of the tenant, or unassign it
     * @description `user_id` names a user of the caller's tenant (422 naming `body.user_id` otherwise); `null` or no
     *     `user_id` unassigns. Any user of the tenant may assign. The timeline records "assigned to …" with who
     *     did it, and the change is announced (`alertChanged` `ASSIGNED`, outbound topic `alert.assigned`). A
     *     resolved alert is a 409. Assigning to the current assignee changes nothing.
     */
    post: operations['assignAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/notes': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add a note to the alert's timeline
     * @description 1–4000 characters (leading and trailing blanks trimmed; 422 otherwise), in any state of the alert. The
     *     note is an entry of the alert's timeline with action `note` and the caller as actor (GET
     *     /alerts/{alertId} lists it); announced on `alertChanged` (`NOTE_ADDED`).
     */
    post: operations['addAlertNote'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/acknowledge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Acknowledge several alerts (up to 100), one result per id
     * @description Each id is acknowledged as `POST /alerts/{alertId}/acknowledge` would, on its own: an id the caller may
     *     not see answers `ok: false` with status 404 and code `NOT_FOUND`, a state that does not allow it status
     *     409 and code `ALERT_INVALID_TRANSITION`, and the other ids are still acknowledged. Repeated ids count once.
     *     More than 100 ids (or none) is a 422.
     */
    post: operations['acknowledgeAlerts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resolve several alerts (up to 100), one result per id
     * @description Each id is resolved as `POST /alerts/{alertId}/resolve` would, on its own (see `POST /alerts/acknowledge` for the per-id results).
     */
    post: operations['resolveAlerts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/assistant/triage-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * What triage counts as a change, and its ranking constants
     * @description The change vocabulary is the documented defaults (deploy, release, rollout, config, flag/feature-flag, migration,
     *     upgrade, scale, restart, `*.updated`, `*.changed`, ...) plus the tenant's own terms. A word matches event types
     *     holding it as a token prefix (`deploy` matches `app.deployed`); a term with `*` is a glob over the whole type.
     */
    get: operations['getTriageSettings'];
    /** Replace the tenant's own change terms (admins) */
    put: operations['setTriageSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/chat': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
      };
      cookie?: never;
    };
    /** The alert's assistant conversation (shared by the tenant), oldest message first */
    get: operations['getAlertChat'];
    put?: never;
    /**
     * Ask the assistant about the alert; returns the whole reply
     * @description The message is stored before the assistant runs, so a model error (502) or timeout (504) never
     *     loses it. Changes asked for ("snooze it for 1h") come back as proposed `actions` for a person
     *     to approve. Streamed replies: GraphQL subscription `assistantChat`.
     */
    post: operations['postAlertChat'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/triage': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run a new triage of the alert
     * @description Deterministic checks (recent deploys and config changes, device drift, the alert's history, a
     *     flapping source, related GPU and integration events), a summary, likely causes whose `evidence`
     *     lists ids of real records, and proposed actions stored as `proposed`. Each call makes a new
     *     triage; the latest is on the alert's GraphQL type (`latestTriage`).
     */
    post: operations['triageAlert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/actions/{actionId}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
        actionId: components['parameters']['AssistantActionId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve a proposed action, which runs it with your permissions
     * @description People only (a service user gets 403); creating a maintenance window needs the admin role.
     *     Runs exactly the recorded args (their hash is checked; send `args_hash` to prove what you
     *     reviewed). `open_proposal` opens a change proposal that still needs a second person. 409 when
     *     the action was already decided, has expired, or the alert changed since it was proposed.
     */
    post: operations['approveAssistantAction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/actions/{actionId}/reject': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
        actionId: components['parameters']['AssistantActionId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Reject a proposed action, with an optional reason */
    post: operations['rejectAssistantAction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/copilot/chat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * One interactive assistant turn in one of your conversations
     * @description Without `conversation_id` a new conversation starts. Answers from live data of your tenant with your permissions.
     */
    post: operations['copilotChat'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/copilot/history': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Your own copilot conversations, most recently active first, with their latest 100 messages */
    get: operations['copilotHistory'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/current': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The calendar month to date, per SKU, with a month-end forecast
     * @description The forecast is a linear run rate (`method: linear_run_rate`), i.e. the month-to-date spend divided
     *     by the time elapsed since the month started, times the length of the month.
     */
    get: operations['billingCurrent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/breakdown': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Spend by source, module, SKU or meter over a period
     * @description One row per key and SKU (a quantity has one unit), largest amount first. The period is a month
     *     (`period=YYYY-MM`) or `from`/`to` (ISO dates, midnight in the billing time zone, or date-times
     *     with an offset; at most 366 days); by default the current month.
     */
    get: operations['billingBreakdown'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/daily': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Daily spend per SKU for the last `days` days (today included) */
    get: operations['billingDaily'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/local-gpu': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Local GPU cost versus the same GPU-hours on cloud GPU SKUs
     * @description Local cost is energy (kWh × the tenant's price per kWh) plus hardware amortisation (GPU-hours × the
     *     tenant's amortisation per GPU-hour). The cloud cost prices the same GPU-hours with the reference
     *     cloud SKU of each GPU model (`cloud.gpu.*`, matched on the telemetry's model name). `saving` is
     *     cloud minus local. `missing` names each input that is not there (telemetry, a price, a cloud SKU
     *     for a model).
     */
    get: operations['billingLocalGpu'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/skus': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The SKU catalogue with the tenant's prices */
    get: operations['billingSkus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/billing/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Cost rows in FinOps FOCUS columns (CSV or JSON)
     * @description One row per local day, SKU and usage dimension of the period (default the current month), local GPU
     *     rows included (`ProviderName` Self-hosted), `ChargeCategory` Usage. Columns are BilledCost,
     *     EffectiveCost, ListCost, ContractedCost, BillingCurrency, BillingAccountId, BillingAccountName,
     *     BillingPeriodStart, BillingPeriodEnd, ChargePeriodStart, ChargePeriodEnd, ChargeCategory,
     *     ChargeFrequency, ChargeDescription, ConsumedQuantity, ConsumedUnit, PricingQuantity, PricingUnit,
     *     ListUnitPrice, ContractedUnitPrice, SkuId, SkuPriceId, ServiceName, ServiceCategory, ProviderName,
     *     PublisherName, InvoiceIssuerName, ResourceId, ResourceName, ResourceType and Tags (a JSON object).
     *     An attachment (`Content-Disposition`); CSV has a header row and RFC 4180 quoting.
     */
    get: operations['billingExport'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Member clusters of this hub with their status
     * @description `status` is `connected` while heartbeats arrive (within CLUSTER_STALE_AFTER_MS, default 3 heartbeats), else `stale`; `revoked` after a revoke. Answered as `{"items": [...]}`.
     */
    get: operations['listClusters'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/invite': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mint a single-use bootstrap invite (admin)
     * @description The token is shown this once and stored only as a hash; it expires after `expires_in_hours`
     *     (default 24). `command` is what the member's operator runs:
     *     `npm run --silent ops -- cluster join --hub <hub url> --invite <token> --name <name>`.
     */
    post: operations['createClusterInvite'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/join': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A member exchanges an invite for its cluster credential
     * @description Called by the member installation (`ops cluster join`). The invite is the credential: an unknown,
     *     already used or expired invite is a 401. The invite is consumed atomically. The cluster credential
     *     (`scc_…`) is in this response only; the member sends it as `Authorization: Bearer` on
     *     /clusters/heartbeat and /clusters/events.
     */
    post: operations['joinCluster'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/heartbeat': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A member reports that it is alive, its version, open alerts by severity and device count */
    post: operations['clusterHeartbeat'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A member forwards its critical alerts; each becomes a `cluster.alert` event on the hub's timeline */
    post: operations['clusterForwardAlerts'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/{clusterId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        clusterId: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    /** One member cluster */
    get: operations['getCluster'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/clusters/{clusterId}/revoke': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        clusterId: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Revoke a member cluster (admin); its next call gets 401 */
    post: operations['revokeCluster'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/devices': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List devices
     * @description Devices of the caller's tenant, by name, as `{"items": [...]}`. No cursor; GraphQL `devices` pages and offers label filters.
     */
    get: operations['listDevices'];
    put?: never;
    /**
     * Add a device (admins)
     * @description Recorded on the timeline as `sot.device_created`. 409 when the name is taken in the tenant.
     */
    post: operations['createDevice'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/devices/{deviceId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    /** Device detail */
    get: operations['getDevice'];
    put?: never;
    post?: never;
    /**
     * Remove a device (admins)
     * @description Its intent history and drift reports go with it; alerts, events and proposals stay, detached (`device_id` null). Recorded as `sot.device_deleted`.
     */
    delete: operations['deleteDevice'];
    options?: never;
    head?: never;
    /**
     * Change a device (admins)
     * @description Omitted fields stay; null clears one (not `name`).
     */
    patch: operations['updateDevice'];
    trace?: never;
  };
  '/sot/devices/{deviceId}/config': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    /**
     * Last observed configuration, with the time it was observed
     * @description `config` and `observed_at` are null until an agent or the source of truth has reported one.
     */
    get: operations['getDeviceConfig'];
    /**
     * Report what the device runs (the agent path)
     * @description For collectors and agents (typically a service user's PAT; any user may report). Stores the
     *     configuration as observed at `observed_at` (default now), records `sot.config_observed` on the
     *     timeline when it changed, and queues a reconcile. Same as GraphQL `reportObservedConfig`.
     */
    put: operations['reportObservedConfig'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/devices/{deviceId}/intent': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    /**
     * Current intended configuration, with its version, author and time
     * @description Fields are null until a first version exists. The full history is GraphQL `device { intentHistory }`.
     */
    get: operations['getDeviceIntent'];
    /**
     * Write a new intent version directly (admins)
     * @description Adds the next version, authored by the caller, records `sot.intent_changed` on the timeline and
     *     in the audit log (flagged `bypassedReview`), and queues a reconcile. This is the admin's direct
     *     path and so bypasses the four-eyes rule; a member (or anyone wanting review) opens a proposal
     *     instead (`POST /sot/proposals`). When the tenant requires proposals (`PUT /sot/review-settings`
     *     with `require_proposals: true`) it answers 403 with code `PROPOSAL_REQUIRED`.
     */
    put: operations['setDeviceIntent'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/review-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The tenant's review rules for intent changes */
    get: operations['getReviewSettings'];
    /**
     * Change the tenant's review rules (admins)
     * @description `require_proposals: true` makes every intent change go through a proposal a second person
     *     approves: the direct `PUT /sot/devices/{deviceId}/intent` then answers 403 `PROPOSAL_REQUIRED`.
     */
    put: operations['setReviewSettings'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/devices/{deviceId}/reconcile': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Queue a reconcile (intent vs observed configuration)
     * @description A job compares the current intent with the last observed configuration and records a drift
     *     report (a unified diff from intended to observed, line endings and trailing spaces ignored), then
     *     puts `sot.in_sync`, `sot.drift_detected` (warning) or `sot.reconcile_skipped` (nothing to compare
     *     yet) on the timeline, where alert rules can match it. Read the result in GraphQL `device { drift }`
     *     or `GET /sot/devices/{id}` (`drift_status`).
     */
    post: operations['reconcileDevice'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/webhooks/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Device changes from a source-of-truth system (NetBox-style webhook)
     * @description Signed like inbound webhooks: `X-Service-Signature` is the hex HMAC-SHA256 of the raw body keyed by
     *     the webhook's secret (GraphQL `createInboundWebhook(input: {name, kind: sot})`, admins). An unknown
     *     slug is a 404; unsigned or wrongly signed calls get 401 before the body is looked at; 10 POSTs per
     *     second per webhook (429 above).
     *
     *     Body: NetBox's webhook format. `model` `dcim.device` (or `device`) with `event` `created` or
     *     `updated` upserts the device by external id (`data.id`), adopting a same-named device that has
     *     none; `deleted` removes it. Mapping: `data.name` → name; `role` (or `device_role`), `site`,
     *     `platform` → their `name` (or `slug`); `primary_ip` (or `primary_ip4`) `.address` without its
     *     prefix length → management address; labels ← custom fields with scalar values, `status` ←
     *     `data.status.value`, `tags` ← the sorted tag names joined by commas. Other models are
     *     acknowledged with `result: ignored`. Each applied change is recorded on the timeline as
     *     `sot.device_created|updated|deleted` (received via `sot`, source `sot/<slug>`).
     */
    post: operations['sotWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/escalation-policies': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Escalation policies with their steps, by name */
    get: operations['listEscalationPolicies'];
    put?: never;
    /** Create a policy with its steps (admins) */
    post: operations['createEscalationPolicy'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/escalation-policies/{policyId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        policyId: string;
      };
      cookie?: never;
    };
    /** One policy */
    get: operations['getEscalationPolicy'];
    put?: never;
    post?: never;
    /** Delete a policy (admins); rules, integrations and groups using it page no one until given another */
    delete: operations['deleteEscalationPolicy'];
    options?: never;
    head?: never;
    /** Change a policy (admins); `steps`, when sent, replaces the steps */
    patch: operations['updateEscalationPolicy'];
    trace?: never;
  };
  '/paging-settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The tenant's paging settings (its default escalation policy) */
    get: operations['getPagingSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change the settings sent (admins)
     * @description `default_escalation_policy_id` pages alerts whose rule and integration name no policy; null clears it (such
     *     alerts then page nobody). Another tenant's or a missing policy is 422.
     */
    patch: operations['updatePagingSettings'];
    trace?: never;
  };
  '/alert-groups': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Alert groups, newest first */
    get: operations['listAlertGroups'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One alert group with its paging state */
    get: operations['getAlertGroup'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The group's notifications, oldest first: to whom, how, when, with what result */
    get: operations['listAlertGroupNotifications'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}/acknowledge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Acknowledge the group and its alerts; escalation stops */
    post: operations['acknowledgeAlertGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Resolve the group and its alerts */
    post: operations['resolveAlertGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}/escalate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Escalate now: run the next step at once */
    post: operations['escalateAlertGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}/snooze': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Pause escalation for a duration or until a time; it restarts from the first step then */
    post: operations['snoozeAlertGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-groups/{groupId}/reassign': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Assign the group's alerts to a person and page them now */
    post: operations['reassignAlertGroup'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tenant's timeline, newest first
     * @description A bare JSON array (no cursor; narrow the window instead). Out-of-range `since_hours` or `limit` is
     *     a 422, never silently clamped. GraphQL `events` offers the same filters plus `type` (glob),
     *     `source`, labels and text search, with cursor pagination.
     */
    get: operations['listEvents'];
    put?: never;
    /**
     * Record an event on the tenant's timeline (ingest key)
     * @description Accepts envelope shape A (`type`, `module`, `source`, `summary`, `severity`, `payload`) or shape B
     *     (`source`, `kind`, `severity`, `labels`, `payload`). Both map onto one stored event:
     *
     *     - `type` (A) and `kind` (B) are synonyms and become the event's `type`; send one of them (both with
     *       different values is a 422).
     *     - `source` is required. `severity` defaults to `info`; `labels` (string → string, also accepted in
     *       shape A) and `payload` (any JSON object) default to `{}`.
     *     - A missing `summary` becomes `payload.summary` when that is a string, otherwise the type.
     *     - `tenant_id` is ignored: the tenant is the ingest key's.
     *     - Any other top-level field is a 422 naming it (so a misspelled `severity` cannot silently
     *       downgrade an event). Put arbitrary content in `payload` or `labels`.
     *
     *     **202 means the event is committed** to the database; alert rules evaluate it asynchronously.
     *     Limits: body up to 1 MiB (413 above); 10 POSTs per second per ingest key (429 with
     *     `Retry-After` above; the rate is the server's `INGEST_RATE_PER_SECOND`). After an ingest-key
     *     rotation the previous key keeps working for 24 hours.
     *
     *     **Batches.** The body may also be a JSON array of 1 to 100 envelopes (an empty or longer array is
     *     a 422). Each item is validated and stored on its own, and the 202 answer lists one result per item
     *     in request order: `accepted` with the event's `id`, or `rejected` with the item's error `code` and
     *     `detail` (field locations name the item: `["body", "3", "severity"]`). A bad item never loses
     *     the good ones. Each item counts against the ingest key's rate: items past the budget are rejected
     *     with `RATE_LIMITED` (the answer then carries `Retry-After`); resend just those. The single-object
     *     form is unchanged.
     *
     *     Every refused ingest (401, 422, 429, and each rejected batch item) is logged at `warn` with
     *     the tenant (or the first 10 characters of the key sent), the status and the reason, and counted
     *     in `/metrics` as `events_ingest_rejected_total{status, reason}`.
     */
    post: operations['ingestEvent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/events/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Live timeline as server-sent events
     * @description `text/event-stream`. Each event is sent as
     *
     *     ```
     *     id: <event id>
     *     event: event
     *     data: <the event as in GET /events, JSON on one line>
     *     ```
     *
     *     It starts with `retry: 2000` and a `: connected` comment, and sends a `: heartbeat` comment every
     *     15 seconds. Events stored on any node of the service are delivered. To resume after a disconnect,
     *     send `Last-Event-ID` (EventSource does so by itself) or `last_event_id`: the events stored after
     *     that id (at most 1000) are replayed from the database before live ones, without duplicates. A
     *     client that reads too slowly (over 1 MiB unread) is disconnected and should resume that way.
     *     Filters as in GET /events.
     */
    get: operations['streamEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{slug}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The inbound webhook's slug (from GraphQL `createInboundWebhook`). */
        slug: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record an event through a signed inbound webhook (shape B)
     * @description Takes envelope shape B (`source`, `kind`, `severity`, `labels`, `payload`; `summary` and `module`
     *     are accepted too, `type` is not). `X-Service-Signature` must be the hex HMAC-SHA256 of the exact
     *     raw body keyed by the webhook's secret (a `sha256=` prefix is tolerated); unsigned or wrongly
     *     signed calls get 401. After a secret rotation the previous secret verifies for 24 hours.
     *     The mapping onto the stored event is the one of POST /events. Limits: 1 MiB (413), 10 POSTs per
     *     second per webhook (429 with `Retry-After`). An unknown slug is a 404.
     *
     *     Replay protection, per webhook (PATCH /inbound-webhooks/{inboundWebhookId}): with
     *     `require_standard_webhooks` only the Standard Webhooks form is accepted instead (`webhook-id`,
     *     `webhook-timestamp` in Unix seconds within 5 minutes, `webhook-signature` = `v1,<base64
     *     HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed by the secret after `whsec_` decoded as base64);
     *     a `webhook-id` already received in the last 24 hours is a 409 WEBHOOK_REPLAYED. With
     *     `reject_repeated_signature` the same `X-Service-Signature` twice within 5 minutes is a 409.
     */
    post: operations['receiveInboundWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/gpu/diagnostics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Diagnostics requests, newest first */
    get: operations['listGpuDiagnostics'];
    put?: never;
    /** Start diagnostics for a GPU or a node (admin) */
    post: operations['startGpuDiagnostic'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/gpu/diagnostics/{diagnosticId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        diagnosticId: string;
      };
      cookie?: never;
    };
    /** A diagnostics request with its checks */
    get: operations['getGpuDiagnostic'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/aiperf/runs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Load-test runs, newest first */
    get: operations['listAiperfRuns'];
    put?: never;
    /**
     * Start a load-test run (admin)
     * @description Give exactly one of `request_count` and `duration_s`; `request_rate` is required in `request_rate` mode.
     */
    post: operations['startAiperfRun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/aiperf/runs/{runId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: components['parameters']['AiperfRunId'];
      };
      cookie?: never;
    };
    /** A run with its results */
    get: operations['getAiperfRun'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/aiperf/runs/{runId}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: components['parameters']['AiperfRunId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a queued or running run (admin)
     * @description A queued run ends `cancelled` at once; a running one stops within a second and keeps the results of the requests that completed. 409 when the run has already ended.
     */
    post: operations['cancelAiperfRun'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/gpu/samples': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Push GPU samples (the collector; ingest key)
     * @description Up to 5,000 samples per request within the body limit (`BODY_LIMIT_BYTES`, 1 MiB by default, counted
     *     after a `Content-Encoding: gzip` body is inflated: about 3,000 samples with all ten metrics), in the
     *     per-key rate limit of `POST /events`. A sample without `at` is stamped on arrival; one more
     *     than 10 minutes in the future is refused. A sample already stored (same GPU and time) is skipped,
     *     so a retried push is harmless. Answers how many GPUs, new samples and hardware events it recorded.
     */
    post: operations['pushGpuSamples'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/overview': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * GPU fleet overview
     * @description Nodes and GPUs by health, average utilization, idle GPUs (under 5 %), energy used since midnight UTC (from the GPUs' energy counters), open alerts from GPU sources, and the latest hardware events.
     */
    get: operations['aiFactoryOverview'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/gpu/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every GPU with its health verdict and latest values, and fleet totals */
    get: operations['gpuSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/gpu/timeseries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One metric over time, per GPU
     * @description At most ~1,000 points per series: the step is at least `since_hours × 3600 / 1000` seconds and the
     *     sample interval. Steps under a minute read raw samples (within their retention), under an hour the
     *     1-minute rollup, else the 1-hour rollup; `resolution` says which. Each point is `[time, value]`,
     *     the average over its step (null when nothing was reported). At most 200 series.
     */
    get: operations['gpuTimeseries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ai-factory/gpu/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Hardware events, newest first */
    get: operations['gpuEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inhibit-rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List inhibition rules, oldest first (the order they are evaluated in) */
    get: operations['listInhibitRules'];
    put?: never;
    /** Create an inhibition rule (admins) */
    post: operations['createInhibitRule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inhibit-rules/{inhibitRuleId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inhibitRuleId: string;
      };
      cookie?: never;
    };
    /** One inhibition rule */
    get: operations['getInhibitRule'];
    put?: never;
    post?: never;
    /**
     * Delete an inhibition rule (admins)
     * @description Alerts it inhibited stay marked until the alert inhibiting them resolves.
     */
    delete: operations['deleteInhibitRule'];
    options?: never;
    head?: never;
    /**
     * Change an inhibition rule (admins)
     * @description Alerts already inhibited keep their mark until the alert inhibiting them resolves.
     */
    patch: operations['updateInhibitRule'];
    trace?: never;
  };
  '/alerts/{alertId}/paging': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    /**
     * Why the alert did or didn't page
     * @description The reasons in the order to read them: what muted it (`maintenance_window`, `silence`, `inhibition`),
     *     the `route` it took (once the routing tree decides it), its `group` and the group's escalation `policy`,
     *     and the `pages` sent for it. `blocks` marks the reasons that keep it from paging. GraphQL:
     *     `Alert.pagingExplanation`.
     */
    get: operations['getAlertPaging'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integrations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tenant's integrations with a health summary and the last event received
     * @description Open to every user of the tenant (a member's PAT can investigate). Answered as `{"items": [...]}`, oldest first.
     */
    get: operations['listIntegrations'];
    put?: never;
    /**
     * Create an integration (admin); with dry_run=true test the config without saving
     * @description `config` is validated against the provider's JSON Schema (GraphQL `integrationProviders`); each
     *     problem is a 422 entry naming `body.config.<field>`. URL fields must pass the same SSRF guard as
     *     outbound webhooks (private and loopback addresses only when allowlisted by WEBHOOK_URL_ALLOWLIST).
     *     Secret fields (`bearer_token`, `password`) are stored sealed and shown as `********`.
     *
     *     For push providers (`alertmanager`, `webhook`) the response carries `push_url` and `push_token`;
     *     the token is shown this once. The remote system POSTs to `push_url` with
     *     `Authorization: Bearer <push_token>` (Alertmanager: `http_config.authorization.credentials`).
     *
     *     `?dry_run=true` validates the config and probes the remote (`checks.reachable`), saves nothing and
     *     answers 200. Providers: `alertmanager` {url?, bearer_token?, username?, password?, default_severity?},
     *     `prometheus` {url, bearer_token?, username?, password?, default_severity?, targets?},
     *     `webhook` {paths?, event_type?, default_severity?, resolved_values?},
     *     `dcgm` {targets (1 to 50 dcgm-exporter metrics URLs, each through the SSRF guard; 422 names
     *     `body.config.targets.<i>`), interval_seconds? (5 to 3600, default 30: scraped on that schedule)}.
     *     `freshness_seconds` is the expected interval between events (null turns the freshness check off).
     */
    post: operations['createIntegration'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integration-configs/{provider}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    /**
     * The tenant's config of a provider (secrets masked)
     * @description Integrations of the provider inherit these fields unless they set their own. Empty `config` when never set.
     */
    get: operations['getProviderConfig'];
    /**
     * Replace the tenant's config of a provider (admin)
     * @description Validated against the provider's schema (422 naming `body.config.<field>`). Secret fields are sealed and never logged;
     *     send `********` to keep a stored secret. A field sent in an HTTP header (`bearer_token`) must be visible ASCII without
     *     spaces: a placeholder such as `…` is a 422 naming `body.config.bearer_token`. The config holds defaults only:
     *     integrations of the provider inherit it, and only integrations are pulled, so with none the answer's `hint` says to
     *     create one (POST /integrations).
     */
    put: operations['putProviderConfig'];
    post?: never;
    /** Remove the tenant's config of a provider (admin) */
    delete: operations['deleteProviderConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integrations/config/{provider}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    /**
     * Deprecated: use GET /integration-configs/{provider}
     * @deprecated
     * @description Integrations of the provider inherit these fields unless they set their own. Empty `config` when never set.
     */
    get: operations['getIntegrationConfig'];
    /**
     * Deprecated: use PUT /integration-configs/{provider}
     * @deprecated
     * @description Validated against the provider's schema (422 naming `body.config.<field>`). Secret fields are sealed and never logged;
     *     send `********` to keep a stored secret. A field sent in an HTTP header (`bearer_token`) must be visible ASCII without
     *     spaces: a placeholder such as `…` is a 422 naming `body.config.bearer_token`. The config holds defaults only:
     *     integrations of the provider inherit it, and only integrations are pulled, so with none the answer's `hint` says to
     *     create one (POST /integrations).
     */
    put: operations['putIntegrationConfig'];
    post?: never;
    /**
     * Deprecated: use DELETE /integration-configs/{provider}
     * @deprecated
     */
    delete: operations['deleteIntegrationConfig'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integrations/{integrationId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    /** One integration */
    get: operations['getIntegration'];
    put?: never;
    post?: never;
    /** Delete an integration and its health history (admin); its alerts stay */
    delete: operations['deleteIntegration'];
    options?: never;
    head?: never;
    /** Change name, enabled, own config or freshness window (admin) */
    patch: operations['updateIntegration'];
    trace?: never;
  };
  '/integrations/{integrationId}/rotate-token': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** A new push token (admin); the previous one keeps working for 24 hours */
    post: operations['rotateIntegrationPushToken'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integrations/{integrationId}/health': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    /**
     * Current health with the checks that explain it, and recent history
     * @description `status` is `healthy`, `degraded` (reachable, freshness or errors fails; `reason` says which),
     *     `failing` (the config is invalid) or `unknown` (nothing observed yet). Checks run periodically
     *     (INTEGRATION_HEALTH_INTERVAL_MS); `?refresh=true` checks now (probing the remote) and stores the
     *     result. A change of status is recorded on the timeline as `integration.degraded` or
     *     `integration.recovered`.
     */
    get: operations['getIntegrationHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integrations/{provider}/ingest': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Pull every enabled integration of the provider now
     * @description Open to every user of the tenant. Records what changed (newly firing alerts open ours, alerts no
     *     longer active are resolved) and returns the counts per integration; a failed pull is reported in
     *     its entry and counted on its health. With no enabled integration of the provider (a provider config
     *     alone is never pulled) `integrations` is empty and `hint` says what to do. Limited to INTEGRATION_INGEST_PER_MINUTE calls (default 6) per
     *     minute per tenant and provider; past that 429 with Retry-After.
     *     `dcgm` scrapes every target and records the GPU telemetry (`/ai-factory/gpu/*`); a target that
     *     fails makes its entry `ok: false` with `pull partly failed: <target>: <why>` while the other
     *     targets' samples are kept. Providers with an interval (dcgm's `interval_seconds`) are also pulled
     *     on that schedule by the workers.
     */
    post: operations['ingestIntegrations'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/integrations/{integrationId}/push': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Where a push integration's system sends (Alertmanager webhook receiver, generic webhook)
     * @description Authenticated by `Authorization: Bearer <push token>` (the rotated-away token works for 24 hours);
     *     the token finds the integration and so the tenant. `alertmanager` takes Alertmanager's webhook
     *     payload (`version` "4", `alerts[]` with `status`, `labels`, `annotations`, `startsAt`, `endsAt`,
     *     `generatorURL`, `fingerprint`): each alert becomes a timeline event, a firing one opens or bumps
     *     our alert (deduplicated by fingerprint), a resolved one resolves it. `webhook` takes any JSON
     *     object mapped by the integration's field paths. 10 POSTs per second per integration.
     *
     *     `pagerduty` takes PagerDuty Events API v2 events, so any tool that sends to PagerDuty (Alertmanager
     *     `pagerduty_configs` with `url` set to this push URL, Grafana, Zabbix, Datadog, Sentry) sends here:
     *     `routing_key` is the push token (the header works too). `event_action` trigger / acknowledge /
     *     resolve acts on the alert named by `dedup_key`; `payload.severity` critical/error → critical,
     *     warning, info; `payload.custom_details` becomes labels (short one-line strings) and annotations.
     *     Answers as PagerDuty does: 202 `{status: "success", message, dedup_key}`, or 400
     *     `{status: "invalid event", message, errors}` for a body it cannot take.
     */
    post: operations['pushToIntegration'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/version': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The release this server runs
     * @description `version` is the semantic version (CHANGELOG.md has its section; a breaking change ships only in a new
     *     major version). `schema_hash` is `sha256:<hex>` of the printed, sorted GraphQL schema, equal to GraphQL
     *     `serverInfo.schemaHash`: two servers with the same hash serve the same schema. `features` lists the
     *     optional features turned on (`assistant:openai`, `integration:pagerduty`, `redis-cluster`, …), sorted.
     */
    get: operations['getVersion'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/me/contact-methods': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** My contact methods */
    get: operations['listContactMethods'];
    put?: never;
    /**
     * Add a contact method
     * @description `address`: the email address (email), the ntfy server URL (ntfy), the incoming-webhook URL (slack,
     *     mattermost, teams, discord; sealed, only its origin is shown), the URL to POST to (webhook; its
     *     signing secret `secret` is in this answer only). URLs obey the outbound address policy.
     */
    post: operations['createContactMethod'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/me/contact-methods/{contactMethodId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        contactMethodId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a contact method and its rules */
    delete: operations['deleteContactMethod'];
    options?: never;
    head?: never;
    /** Change a contact method */
    patch: operations['updateContactMethod'];
    trace?: never;
  };
  '/users/me/contact-methods/{contactMethodId}/test': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        contactMethodId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test notification
     * @description Queued at once; the notification's `status` tells how it went.
     */
    post: operations['testContactMethod'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/me/notification-rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** My notification rules */
    get: operations['listNotificationRules'];
    put?: never;
    /** Add a rule (notify by a method after some minutes, for one urgency) */
    post: operations['createNotificationRule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/me/notification-rules/{ruleId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a rule */
    delete: operations['deleteNotificationRule'];
    options?: never;
    head?: never;
    /** Change a rule */
    patch: operations['updateNotificationRule'];
    trace?: never;
  };
  '/users/me/inbox': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** My in-app inbox, newest first, with the unread count */
    get: operations['getInbox'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/me/inbox/read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mark inbox items read (all unread ones without `ids`) */
    post: operations['markInboxRead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alerts/{alertId}/notifications': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: string;
      };
      cookie?: never;
    };
    /** Every notification of the alert's group: to whom, how, when, result, latency */
    get: operations['listAlertNotifications'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/sot/proposals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Open a proposal */
    post: operations['openProposal'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/proposals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List proposals, newest first
     * @description `{"items": [...]}`, no cursor (GraphQL `proposals` pages). `older_than` keeps proposals created longer ago than the duration.
     */
    get: operations['listProposals'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/proposals/{proposalId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    /** Proposal detail */
    get: operations['getProposal'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change a proposal (proposer only); voids an approval
     * @description Omitted fields stay. Giving `proposed_intent` clears `action` and vice versa. The revision is bumped and the status returns to `proposed`.
     */
    patch: operations['updateProposal'];
    trace?: never;
  };
  '/proposals/{proposalId}/approve': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Approve (four-eyes rule)
     * @description 403 with the reason when the caller is the proposer (with any of their credentials) or a service
     *     user; 409 unless the proposal is `proposed`, or when `revision` is given and is no longer current.
     *     The proposal is then applied asynchronously (watch `status`, or subscribe to `proposalChanged`).
     */
    post: operations['approveProposal'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/proposals/{proposalId}/deny': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Deny (any user; the proposer withdrawing it too) */
    post: operations['denyProposal'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/query': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Run a report query */
    post: operations['runReportQuery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/query/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Stream a report query as CSV or JSON
     * @description Streams from a server-side cursor with backpressure: memory stays flat whatever the size. The
     *     response is an attachment (`Content-Disposition: attachment; filename=<entity>-<time>.<format>`).
     *     CSV has a header row and RFC 4180 quoting; JSON is one array of row objects. `limit` defaults to
     *     and may be at most 2000000 rows (a query answers at most 10000). A client that disconnects stops
     *     the query. Errors found before the first byte are JSON as usual; a failure after it ends the
     *     response early.
     */
    post: operations['exportReportQuery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/query/schema': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** JSON Schema of the query language and the field catalogue */
    get: operations['getReportQuerySchema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/query/translate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Plain English to a query document
     * @description By default a built-in deterministic translator (no model, no network) reads phrases such as "critical alerts
     *     in the last 24 hours by source", "events from ci per day this week" or "top 10 devices by open
     *     proposals". With `ASSISTANT_PROVIDER=openai` the configured language model translates instead
     *     (given the query language's schema and catalogue; its tokens are metered for your tenant). The answer is always the query structure (never SQL) and is checked by the same
     *     validator as any query: `valid` and `errors` say whether it can run as is.
     */
    post: operations['translateReportQuery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/saved': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List saved reports, newest first */
    get: operations['listSavedReports'];
    put?: never;
    /** Save a report query */
    post: operations['createSavedReport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/saved/{reportId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        reportId: components['parameters']['ReportsReportId'];
      };
      cookie?: never;
    };
    /** Saved report detail */
    get: operations['getSavedReport'];
    put?: never;
    post?: never;
    /** Delete a saved report (owner or admin); its schedules are disabled with the reason */
    delete: operations['deleteSavedReport'];
    options?: never;
    head?: never;
    /** Change a saved report (owner or admin) */
    patch: operations['updateSavedReport'];
    trace?: never;
  };
  '/reports/saved/{reportId}/run': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        reportId: components['parameters']['ReportsReportId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run a saved report, optionally with parameter values
     * @description `parameters` maps a field name to a value that replaces the value of every filter on that field (a field without a filter gets `eq`, or `in` for a list); `since_hours` and `limit` replace those keys.
     */
    post: operations['runSavedReport'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/dashboards': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List dashboards, newest first */
    get: operations['listDashboards'];
    put?: never;
    /** Create a dashboard */
    post: operations['createDashboard'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/dashboards/{dashboardId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dashboardId: components['parameters']['ReportsDashboardId'];
      };
      cookie?: never;
    };
    /** Dashboard detail */
    get: operations['getDashboard'];
    put?: never;
    post?: never;
    /** Delete a dashboard (owner or admin) */
    delete: operations['deleteDashboard'];
    options?: never;
    head?: never;
    /** Change a dashboard (owner or admin); `panels` replaces the whole list */
    patch: operations['updateDashboard'];
    trace?: never;
  };
  '/reports/dashboards/{dashboardId}/data': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dashboardId: components['parameters']['ReportsDashboardId'];
      };
      cookie?: never;
    };
    /**
     * Every panel's data in one request
     * @description Each distinct saved report runs once. A panel whose report was deleted or failed has `data` null and an `error`.
     */
    get: operations['getDashboardData'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/schedules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List report schedules (admin) */
    get: operations['listReportSchedules'];
    put?: never;
    /** Schedule a saved report's delivery to an outbound webhook (admin) */
    post: operations['createReportSchedule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/reports/schedules/{scheduleId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: components['parameters']['ReportsScheduleId'];
      };
      cookie?: never;
    };
    /** Schedule detail (admin) */
    get: operations['getReportSchedule'];
    put?: never;
    post?: never;
    /** Delete a schedule (admin) */
    delete: operations['deleteReportSchedule'];
    options?: never;
    head?: never;
    /** Change a schedule (admin); `enabled` true re-enables a disabled one */
    patch: operations['updateReportSchedule'];
    trace?: never;
  };
  '/reports/schedules/{scheduleId}/run': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: components['parameters']['ReportsScheduleId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Run a schedule now (admin)
     * @description `delivered` with the outbox message id (the delivery follows through the webhook engine), or `disabled` with the reason when its report or webhook is gone.
     */
    post: operations['runReportSchedule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/routing/tree': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The routing tree (flat; each route names its parent) */
    get: operations['getRoutingTree'];
    /**
     * Replace the whole tree
     * @description Exactly one root (`parent_id` null, no matchers); siblings are tried in list order. Receivers and time
     *     intervals must exist. A route given without an `id` gets one; keep ids to keep live groups forming.
     */
    put: operations['replaceRoutingTree'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/routing/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Which route does an alert with these labels take
     * @description The matching routes in order, with their receivers, as `amtool config routes test` lists them.
     */
    post: operations['testRoute'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/routing/import': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Import an alertmanager.yml
     * @description `config` is the file's text. Its `route` replaces the tree and its `inhibit_rules` the inhibition rules;
     *     `time_intervals` and `receivers` are created or updated by name (a receiver keeps the policy or webhooks
     *     it points at). `unmapped` lists what has no counterpart here (`global`, `templates`, a receiver's
     *     `email_configs`, …). One transaction: a 422 changes nothing.
     */
    post: operations['importAlertmanagerConfig'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/routing/receivers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Named receivers, by name */
    get: operations['listRoutingReceivers'];
    put?: never;
    /** Create a named receiver */
    post: operations['createRoutingReceiver'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/routing/receivers/{receiverId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        receiverId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Delete a receiver no route sends to */
    delete: operations['deleteRoutingReceiver'];
    options?: never;
    head?: never;
    /** Point a receiver at a policy and/or webhooks, or rename it */
    patch: operations['updateRoutingReceiver'];
    trace?: never;
  };
  '/silences': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List silences, newest first */
    get: operations['listSilences'];
    put?: never;
    /**
     * Create a silence
     * @description `starts_at` absent or in the past means now. At least one matcher must not match the empty string
     *     (a silence that would mute every alert is refused, as Alertmanager refuses it). `created_by` defaults
     *     to the caller's email.
     */
    post: operations['createSilence'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/silences/{silenceId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    /** One silence */
    get: operations['getSilence'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change a silence that has not expired
     * @description An expired silence answers 409 `SILENCE_EXPIRED` (create a new one).
     */
    patch: operations['updateSilence'];
    trace?: never;
  };
  '/silences/{silenceId}/expire': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * End a silence now
     * @description A pending silence never starts. 409 `SILENCE_EXPIRED` when it has already ended.
     */
    post: operations['expireSilence'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/time-intervals': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List named time intervals, by name */
    get: operations['listTimeIntervals'];
    put?: never;
    /** Create a named time interval (admins) */
    post: operations['createTimeInterval'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/time-intervals/{timeIntervalId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        timeIntervalId: string;
      };
      cookie?: never;
    };
    /** One time interval */
    get: operations['getTimeInterval'];
    put?: never;
    post?: never;
    /**
     * Delete a time interval (admins)
     * @description 409 `IN_USE` while a silence names it.
     */
    delete: operations['deleteTimeInterval'];
    options?: never;
    head?: never;
    /** Rename or replace the specs (admins) */
    patch: operations['updateTimeInterval'];
    trace?: never;
  };
  '/alert-rules/suggestions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Suggested (starter) rules, each enabled in one step
     * @description Ready rules for what the service records: `gpu.xid` (critical XID), `gpu.thermal` (critical
     *     temperature, resolves on `gpu.thermal_recovered`), `gpu.missing`, `integration.failing` (resolves on
     *     `integration.recovered`), `budget.exceeded` (100 % of the monthly budget), and `heartbeat.<source>`
     *     (an absence rule) for each source that sent a `heartbeat` or `*.heartbeat` event in the last 7 days.
     *     `input` is the `POST /alert-rules` body it creates; `enabled` says whether the tenant has it on.
     *     GraphQL: `suggestedAlertRules`.
     */
    get: operations['listSuggestedAlertRules'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-rules/suggestions/{key}/enable': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        key: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Enable a suggested rule (admins)
     * @description Creates the suggestion's rule, enabled, and returns it. Idempotent: when the tenant already has a rule
     *     from this suggestion it is turned on and returned. GraphQL: `enableSuggestedAlertRule(key)`.
     */
    post: operations['enableSuggestedAlertRule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-rules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List alert rules
     * @description Oldest first, as `{"items": [...]}`.
     */
    get: operations['listAlertRules'];
    put?: never;
    /**
     * Create an alert rule (admins)
     * @description `kind` defaults to `match`. An `absence` rule needs `window_seconds` (1 to 2,592,000). Field
     *     problems come back together as a 422 naming each field (`body.window_seconds`, `body.payload_conditions.0.op`).
     */
    post: operations['createAlertRule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/alert-rules/{ruleId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: components['parameters']['RulesRuleId'];
      };
      cookie?: never;
    };
    /** One alert rule */
    get: operations['getAlertRule'];
    put?: never;
    post?: never;
    /**
     * Delete an alert rule (admins)
     * @description Its alerts stay (their rule becomes null).
     */
    delete: operations['deleteAlertRule'];
    options?: never;
    head?: never;
    /**
     * Change an alert rule (admins)
     * @description Omitted fields stay; null clears an optional field. The kind cannot change. A new absence window applies at once to every source being tracked.
     */
    patch: operations['updateAlertRule'];
    trace?: never;
  };
  '/oncall': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Who is on call now (or at `at`) in each schedule that has someone */
    get: operations['listOnCall'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schedules': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Schedules with their layers, overrides and who is on call now (or at `at`) */
    get: operations['listSchedules'];
    put?: never;
    /**
     * Create a schedule with its layers (admins)
     * @description Layers are listed lowest first: a higher layer wins where it has someone on call. A layer's `handoff_time`
     *     is wall-clock time in the schedule's `time_zone` and stays so across DST changes.
     */
    post: operations['createSchedule'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schedules/{scheduleId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One schedule, with who is on call now (or at `at`) */
    get: operations['getSchedule'];
    put?: never;
    post?: never;
    /** Delete a schedule with its layers and overrides (admins) */
    delete: operations['deleteSchedule'];
    options?: never;
    head?: never;
    /** Change a schedule (admins); `layers`, when sent, replaces the layers */
    patch: operations['updateSchedule'];
    trace?: never;
  };
  '/schedules/{scheduleId}/oncall': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Who is on call in this schedule now (or at `at`) */
    get: operations['getScheduleOnCall'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schedules/{scheduleId}/shifts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The final shifts within [from, to) (at most 92 days)
     * @description Overrides over layers, higher layers over lower; computed, never stored. `from` defaults to now and `to`
     *     to 14 days after `from`. A shift that began before `from` or ends after `to` is cut to the window.
     */
    get: operations['listScheduleShifts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schedules/{scheduleId}/overrides': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The schedule's overrides, by start */
    get: operations['listScheduleOverrides'];
    put?: never;
    /** Put someone on call from `starts_at` to `ends_at` over every layer (any member) */
    post: operations['createScheduleOverride'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schedules/{scheduleId}/overrides/{overrideId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove an override (any member) */
    delete: operations['deleteScheduleOverride'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/calendar-feeds/{file}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * An iCalendar feed (`<token>.ics`; the secret URL is the credential)
     * @description Created with the GraphQL mutation `createCalendarFeed` (the URL is shown once) and revoked with
     *     `revokeCalendarFeed`. Shifts from a week ago to 60 days ahead: a schedule's final shifts, or one person's
     *     shifts across every schedule. An unknown or revoked token is 404.
     */
    get: operations['getCalendarFeed'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/providers': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The providers people can sign in with
     * @description Public, for sign-in pages ("Sign in with <display_name>").
     */
    get: operations['listSsoProviders'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/providers/{slug}/start': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a sign-in with a provider
     * @description Answers the provider URL to send the browser to, and sets the httpOnly `ops_sso_flow` cookie that binds
     *     the sign-in to this browser for 10 minutes. The provider sends the browser back to
     *     `GET /auth/sso/callback`, which opens the session.
     */
    post: operations['startSsoSignIn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/callback': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Where the provider sends the browser back (the redirect URI)
     * @description Checks the `state` (one use, this browser's), exchanges the code with the PKCE verifier, verifies the ID
     *     token (issuer, audience, signature, nonce, expiry), finds or creates the user in the provider's tenant
     *     with the role their group claim maps to, sets the `ops_session` cookie and redirects to the console (303).
     */
    get: operations['completeSsoSignIn'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The tenant's single sign-on settings (admins) */
    get: operations['getSsoSettings'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/provider': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Create or replace the tenant's own provider (admins)
     * @description The discovery document is fetched first (422 on `discovery_url` when it fails). `client_secret` is sealed
     *     and never shown again: omit it to keep the stored one, send `""` for a public client (PKCE only).
     */
    put: operations['setSsoProvider'];
    post?: never;
    /** Remove the tenant's own provider (admins) */
    delete: operations['clearSsoProvider'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/sso/policy': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Require single sign-on for the tenant's people (admins)
     * @description With `required: true`, password sign-in answers 403 `SSO_REQUIRED` for the tenant's people except
     *     `break_glass_user_id`, a person who is an admin and keeps a password. Service users' PATs are unaffected.
     */
    put: operations['setSsoPolicy'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/password/forgot': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ask for a password reset link by email ("Forgot password?")
     * @description Mails a single-use link (valid 1 hour) to choose a new password, if a person uses this email. The answer
     *     is the same, and comes as fast, for every well-formed email: it tells nobody whether an account exists.
     *     Limited to 3 requests per email and 20 per client address per hour, across all API nodes (429 with
     *     `Retry-After`). Using the link ends the person's sessions; their PATs stay (docs/accounts.md says why).
     */
    post: operations['requestPasswordReset'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/auth/password/reset': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a password with the token of an invitation or reset link
     * @description The token is the `token` parameter of the emailed link (`/account/password?token=…`, whose page does the
     *     same). Works once and before the link expires (invitation 72 h, reset 1 h); a used, replaced or expired
     *     token is a 422 `PASSWORD_LINK_UNUSABLE`. Ends the person's open sessions; then log in.
     */
    post: operations['setPasswordWithLink'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a user (admins); a person is invited by email
     * @description A person (`kind: human`) gets an invitation: a single-use link, valid 72 hours, to choose their own
     *     password (the server needs `SMTP_URL`, else 422). Admins never set a person's password. A service user
     *     holds PATs an admin mints. An email already in use (in any tenant) is a 422 that names no tenant.
     */
    post: operations['createUser'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/users/{userId}/password-reset': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        userId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Force a password reset for a person (admins)
     * @description The person's password stops working, their sessions end and their PATs are revoked now; a single-use
     *     reset link (1 hour) goes to their email. The admin never sees a password. Service users: 422.
     */
    post: operations['resetUserPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/outbound-webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List outbound webhooks
     * @description Oldest first, as `{"items": [...]}`; no secrets.
     */
    get: operations['listOutboundWebhooks'];
    put?: never;
    /**
     * Create an outbound webhook (admins)
     * @description The answer carries the signing `secret` (`whsec_…`) this once. The URL must reach a public
     *     address unless the operator allowlisted it (`WEBHOOK_URL_ALLOWLIST`); otherwise 422 on `body.url`.
     */
    post: operations['createOutboundWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/outbound-webhooks/{webhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    /** One outbound webhook */
    get: operations['getOutboundWebhook'];
    put?: never;
    post?: never;
    /** Delete an outbound webhook and its delivery history (admins) */
    delete: operations['deleteOutboundWebhook'];
    options?: never;
    head?: never;
    /**
     * Change an outbound webhook (admins)
     * @description Omitted fields stay; `triggers` replaces the whole list. A `url` on another origin (host, scheme or port) gets a new signing secret, and the old one stops signing at once (`secret_cleared: true` in the answer; POST /outbound-webhooks/{webhookId}/rotate-secret then shows a secret to give the new receiver), unless `secret` gives the current secret again.
     */
    patch: operations['updateOutboundWebhook'];
    trace?: never;
  };
  '/outbound-webhooks/{webhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Issue a new signing secret (admins)
     * @description For 24 hours (the overlap) deliveries carry both secrets' signatures: two space-separated `v1,`
     *     entries in `webhook-signature` (Standard Webhooks), and `signing` (optional body field) chooses which
     *     secret signs SPEC's `X-Service-Signature`:
     *     - `new_at_once` (the default, also with no body): the new secret signs `X-Service-Signature` at once;
     *       the previous one signs `X-Service-Signature-Previous`. A receiver that verifies only
     *       `X-Service-Signature` needs the new secret from the rotation on.
     *     - `old_until_confirmed`: the previous secret keeps signing `X-Service-Signature` and the new one signs
     *       `X-Service-Signature-Next`, until `POST /outbound-webhooks/{webhookId}/rotate-secret/confirm` or the
     *       end of the 24 hours, whichever comes first. A receiver that verifies only `X-Service-Signature`
     *       keeps verifying with the old secret: give it the new secret, then confirm.
     */
    post: operations['rotateOutboundWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/outbound-webhooks/{webhookId}/rotate-secret/confirm': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Confirm a rotation; the new secret signs X-Service-Signature from now on (admins)
     * @description After a rotation with `signing: old_until_confirmed`, once every receiver holds the new secret: from
     *     now on the new secret signs `X-Service-Signature`, and the previous one moves to
     *     `X-Service-Signature-Previous` for the rest of its 24 hours. Answers the current secret with
     *     `awaiting_confirmation: false`. Confirming again changes nothing; 409 when no rotation is within its
     *     24 hours.
     */
    post: operations['confirmOutboundWebhookSecretRotation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/outbound-webhooks/{webhookId}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    /**
     * The webhook's latest deliveries, with every attempt
     * @description Newest first, at most 100 (history is kept 30 days), as `{"items": [...]}`. Each attempt has the request headers sent, the response status, the first 4 KiB of the response body and the duration.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/deliveries/{deliveryId}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deliveryId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivered or failed delivery again (admins)
     * @description Same body and `webhook-id`, a fresh one-hour retry window. 409 while it is still in progress or when its webhook is disabled.
     */
    post: operations['redeliverDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inbound-webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List inbound webhooks
     * @description Oldest first, as `{"items": [...]}`; each with its URL, no secret.
     */
    get: operations['listInboundWebhooks'];
    put?: never;
    /**
     * Create an inbound webhook (admins)
     * @description The slug is derived from the name. The answer carries the `url` to POST to and the `secret`
     *     (key of the hex HMAC-SHA256 of the raw body sent in `X-Service-Signature`), shown this once.
     *     `kind` `events` (default) takes envelope shape B at `/webhooks/<slug>`; `sot` takes source-of-truth
     *     device changes at `/sot/webhooks/<slug>`.
     */
    post: operations['createInboundWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/inbound-webhooks/{inboundWebhookId}': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inboundWebhookId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Rename an inbound webhook or change its replay protection (admins)
     * @description Omitted fields stay. See docs/hardening.md, "Replay protection for inbound webhooks".
     */
    patch: operations['updateInboundWebhook'];
    trace?: never;
  };
  '/inbound-webhooks/{inboundWebhookId}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inboundWebhookId: string;
      };
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Issue a new signing secret for an inbound webhook (admins)
     * @description The previous secret keeps verifying for 24 hours (`previous_secret_valid_until`).
     */
    post: operations['rotateInboundWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ingest-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The tenant's ingest keys that still work (admins)
     * @description Newest first, as `{"items": [...]}`: only the first characters of each key.
     */
    get: operations['listIngestKeys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/ingest-keys/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mint a new ingest key (admins)
     * @description The new key (`sik_…`) for `X-Service-Key` is shown this once; every older key keeps working until `previous_valid_until` (24 hours).
     */
    post: operations['rotateIngestKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  delivery: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * What the service POSTs to a receiver configured with createOutboundWebhook
     * @description Signed with X-Service-Signature and the Standard Webhooks headers (see the tag description). Answer 2xx within the timeout; anything else is retried with exponential backoff for up to one hour, except 410 Gone and other 4xx (but 408/429), which stop retries.
     */
    post: operations['outboundWebhookDelivery'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  alertGroupNotified: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * What a routing receiver's webhook gets for each notification of an alert group
     * @description An `alert_group.notified` delivery, signed and retried as every delivery; `payload` is `AlertGroupNotifiedPayload`.
     */
    post: operations['outboundWebhookAlertGroupNotified'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    /**
     * @description Stable machine reason of an error (REST `code`, GraphQL `extensions.reason`). Clients branch on
     *     this, never on `detail`. New reasons may be added.
     * @enum {string}
     */
    ErrorCode:
      | 'UNAUTHENTICATED'
      | 'CREDENTIAL_MALFORMED'
      | 'TOKEN_INVALID'
      | 'TOKEN_REVOKED'
      | 'TOKEN_EXPIRED'
      | 'SESSION_EXPIRED'
      | 'SESSION_ENDED'
      | 'LOGIN_FAILED'
      | 'INGEST_KEY_INVALID'
      | 'SIGNATURE_INVALID'
      | 'SSO_FAILED'
      | 'FORBIDDEN'
      | 'SCOPE_USER_REQUIRED'
      | 'SCOPE_ADMIN_REQUIRED'
      | 'SCOPE_HUMAN_REQUIRED'
      | 'TOKEN_OWNER_NOT_SERVICE'
      | 'PROPOSAL_SELF_APPROVAL'
      | 'PROPOSAL_NOT_PROPOSER'
      | 'CROSS_ORIGIN_REQUEST'
      | 'USER_MANAGEMENT_HUMAN_ONLY'
      | 'APPROVER_CREDENTIAL_NOT_OWN'
      | 'SSO_REQUIRED'
      | 'SSO_ROLE_NOT_GRANTED'
      | 'SSO_ACCOUNT_ELSEWHERE'
      | 'PROPOSAL_REQUIRED'
      | 'NOT_FOUND'
      | 'ROUTE_NOT_FOUND'
      | 'METHOD_NOT_ALLOWED'
      | 'CONFLICT'
      | 'ALREADY_EXISTS'
      | 'LAST_ADMIN'
      | 'CONCURRENT_CHANGE'
      | 'ALERT_INVALID_TRANSITION'
      | 'PROPOSAL_INVALID_TRANSITION'
      | 'PROPOSAL_REVISION_MISMATCH'
      | 'TOKEN_NOT_REVOKED'
      | 'TOKEN_REACTIVATION_EXPIRED'
      | 'TOKEN_NOT_ACTIVE'
      | 'ROTATION_IN_GRACE'
      | 'WEBHOOK_REPLAYED'
      | 'DEVICE_ALREADY_LINKED'
      | 'DELIVERY_IN_PROGRESS'
      | 'WEBHOOK_DISABLED'
      | 'SILENCE_EXPIRED'
      | 'IN_USE'
      | 'BODY_TOO_LARGE'
      | 'UNSUPPORTED_MEDIA_TYPE'
      | 'CONTENT_ENCODING_UNSUPPORTED'
      | 'CONTENT_ENCODING_INVALID'
      | 'VALIDATION_FAILED'
      | 'PASSWORD_LINK_UNUSABLE'
      | 'INVALID_JSON'
      | 'QUERY_TOO_COMPLEX'
      | 'RATE_LIMITED'
      | 'INTERNAL_ERROR'
      | 'UPSTREAM_FAILED'
      | 'UPSTREAM_TIMEOUT'
      | 'STATEMENT_TIMEOUT';
    Error: {
      code: components['schemas']['ErrorCode'];
      detail: string | components['schemas']['FieldProblem'][];
    };
    ValidationError: {
      code: components['schemas']['ErrorCode'];
      detail: components['schemas']['FieldProblem'][];
    };
    FieldProblem: {
      /** @description Where the problem is, e.g. ["body", "name"], ["query", "limit"] or ["path", "alertId"]. */
      loc: string[];
      msg: string;
    };
    LoginResponse: {
      access_token: string;
      /** @enum {string} */
      token_type: 'bearer';
      /**
       * Format: int32
       * @description Seconds
       */
      expires_in: number;
    };
    Me: {
      id: string;
      email: string;
      name?: string | null;
      /** @enum {string} */
      role: 'admin' | 'member';
      /** @enum {string} */
      kind: 'human' | 'service';
      /** Format: date-time */
      created_at: string;
      tenant: {
        id: string;
        name: string;
      };
      /** @enum {string} */
      credential_kind: 'session' | 'pat';
    };
    AccessToken: {
      id: string;
      name: string;
      description?: string | null;
      /** @description The first characters of the token, to recognise it. */
      token_prefix: string;
      /** @enum {string} */
      status: 'active' | 'revoked' | 'expired';
      /** Format: date-time */
      created_at: string;
      /**
       * Format: date-time
       * @description Null for a token that never expires.
       */
      expires_at?: string | null;
      /** Format: date-time */
      last_used_at?: string | null;
      /** Format: date-time */
      revoked_at?: string | null;
      /**
       * Format: date-time
       * @description Set after rotation; the token stops working then.
       */
      grace_until?: string | null;
    };
    MintedToken: components['schemas']['AccessToken'] & {
      /** @description The cleartext token (spat_…), shown this once. */
      token: string;
    };
    AlertmanagerLabelSet: {
      [key: string]: string;
    };
    AlertmanagerMatcher: {
      name: string;
      value: string;
      isRegex: boolean;
      /** @description Default true (an equality or regex match; false negates it). */
      isEqual?: boolean;
    };
    AlertmanagerPostableAlert: {
      labels: components['schemas']['AlertmanagerLabelSet'];
      annotations?: components['schemas']['AlertmanagerLabelSet'];
      /** Format: date-time */
      startsAt?: string;
      /** Format: date-time */
      endsAt?: string;
      generatorURL?: string;
    };
    AlertmanagerGettableAlert: {
      labels: components['schemas']['AlertmanagerLabelSet'];
      annotations: components['schemas']['AlertmanagerLabelSet'];
      /** Format: date-time */
      startsAt: string;
      /** Format: date-time */
      endsAt: string;
      /** Format: date-time */
      updatedAt: string;
      fingerprint: string;
      generatorURL?: string;
      receivers: {
        name: string;
      }[];
      status: {
        /** @enum {string} */
        state: 'unprocessed' | 'active' | 'suppressed';
        silencedBy: string[];
        inhibitedBy: string[];
      };
    };
    AlertmanagerPostableSilence: {
      id?: string;
      matchers: components['schemas']['AlertmanagerMatcher'][];
      /** Format: date-time */
      startsAt: string;
      /** Format: date-time */
      endsAt: string;
      createdBy: string;
      comment: string;
    };
    AlertmanagerGettableSilence: {
      id: string;
      status: {
        /** @enum {string} */
        state: 'pending' | 'active' | 'expired';
      };
      /** Format: date-time */
      updatedAt: string;
      matchers: components['schemas']['AlertmanagerMatcher'][];
      /** Format: date-time */
      startsAt: string;
      /** Format: date-time */
      endsAt: string;
      createdBy: string;
      comment: string;
    };
    /** @enum {string} */
    AlertsSeverity: 'info' | 'warning' | 'critical';
    /** @enum {string} */
    AlertsStatus: 'open' | 'acknowledged' | 'snoozed' | 'resolved';
    AlertsAlert: {
      id: string;
      status: components['schemas']['AlertsStatus'];
      severity: components['schemas']['AlertsSeverity'];
      summary: string;
      source?: string | null;
      /** @description String → string labels of the opening event or the upstream alert (without the event directives `event_action` / `dedup_key`). */
      labels: {
        [key: string]: string;
      };
      /** @description String → string notes of the source, e.g. `description`, `runbook_url`, `generator_url` when it had them. */
      annotations: {
        [key: string]: string;
      };
      /** @description Matches while this alert is live attach to it; an event `{"event_action": "resolve", "dedup_key": <this>}` resolves it. */
      dedup_key: string;
      /**
       * Format: int32
       * @description Events attached (absence alerts count 1).
       */
      count: number;
      /** Format: date-time */
      first_seen_at: string;
      /** Format: date-time */
      last_seen_at: string;
      /** Format: date-time */
      acknowledged_at?: string | null;
      /** Format: date-time */
      snoozed_until?: string | null;
      /** Format: date-time */
      resolved_at?: string | null;
      /** @description Muted when it opened (a maintenance window, a silence or an inhibiting alert): it pages no one and no outbound trigger was sent. */
      suppressed: boolean;
      rule_id?: string | null;
      assignee_id?: string | null;
      maintenance_window_id?: string | null;
      /** @description The silence that muted it when it opened. */
      silence_id?: string | null;
      /** @description The live alert that inhibits it (an inhibition rule); it pages no one until that alert resolves. */
      inhibited_by_id?: string | null;
      allowed_actions: ('acknowledge' | 'snooze' | 'resolve')[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    AlertsAlertDetail: components['schemas']['AlertsAlert'] & {
      rule?: null | {
        id: string;
        name: string;
        /** @enum {string} */
        kind: 'match' | 'absence';
      };
      assignee?: null | components['schemas']['AlertsUser'];
      maintenance_window?: null | {
        id: string;
        name: string;
        /** Format: date-time */
        starts_at: string;
        /** Format: date-time */
        ends_at: string;
        /** Format: int32 */
        repeat_every_seconds?: number | null;
      };
      /** @description The 20 latest attached events, latest first, in the shape of GET /events. */
      events: components['schemas']['EventsEvent'][];
      /** @description Every change, oldest first. A null actor is the service itself. */
      timeline: components['schemas']['AlertsTimelineEntry'][];
    };
    /** @description One change of the alert, or a note (action `note`, the text in `note`). */
    AlertsTimelineEntry: {
      id: string;
      /** @enum {string} */
      action: 'opened' | 'acknowledged' | 'snoozed' | 'reopened' | 'resolved' | 'assigned' | 'unassigned' | 'note';
      from_status?: null | components['schemas']['AlertsStatus'];
      to_status?: null | components['schemas']['AlertsStatus'];
      note?: string | null;
      /** Format: date-time */
      created_at: string;
      /** @description The event that made this change (a resolve or acknowledge event, a returning heartbeat, an upstream resolve); null for people and the service. */
      actor_event_id?: string | null;
      actor?: null | components['schemas']['AlertsUser'];
    };
    /**
     * @example {
     *       "ids": [
     *         "0193a0c4-7b1e-7cc0-9f5e-2f4d6c1a9b10",
     *         "0193a0c4-7b1e-7cc0-9f5e-2f4d6c1a9b11"
     *       ]
     *     }
     */
    AlertsBulkRequest: {
      /** @description Alert ids; none or more than 100 is a 422. */
      ids: string[];
    };
    AlertsBulkResults: {
      items: {
        id: string;
        ok: boolean;
        alert?: components['schemas']['AlertsAlert'];
        /**
         * Format: int32
         * @description When not ok: the status the single action would have answered (404, 409, …).
         */
        status?: number;
        code?: components['schemas']['ErrorCode'];
        /** @description When not ok: what went wrong. */
        detail?: string;
      }[];
    };
    AlertsUser: {
      id: string;
      email: string;
      name?: string | null;
    };
    EvidenceList: {
      /** @enum {string} */
      kind:
        | 'event'
        | 'alert'
        | 'device'
        | 'proposal'
        | 'drift_report'
        | 'intent_version'
        | 'rule'
        | 'integration'
        | 'gpu'
        | 'record';
      /** @description The record's full id. */
      id: string;
      label: string;
    }[];
    TriageSettings: {
      /** @description The tenant's own change terms. */
      change_types: string[];
      default_change_types: string[];
      entity_keys: string[];
      /** Format: int32 */
      window_minutes: number;
      confidence_thresholds: {
        /** Format: int32 */
        high: number;
        /** Format: int32 */
        medium: number;
      };
    };
    AssistantIdList: string[];
    AssistantPerson: {
      id: string;
      email: string;
      name: string | null;
    } | null;
    AssistantChatRequest: {
      message: string;
    };
    AssistantAction: {
      id: string;
      alert_id: string;
      triage_id: string | null;
      conversation_id: string | null;
      /** @enum {string} */
      tool:
        | 'acknowledge_alert'
        | 'snooze_alert'
        | 'resolve_alert'
        | 'reconcile_device'
        | 'open_proposal'
        | 'create_maintenance_window';
      /** @description Exactly what runs on approval, e.g. {"alert_id": "...", "duration": "1h"}. */
      args: {
        [key: string]: unknown;
      };
      /** @description sha256 hex of the canonical args. */
      args_hash: string;
      rationale: string;
      /** @enum {string} */
      risk: 'low' | 'medium' | 'high';
      /** @enum {string} */
      status: 'proposed' | 'approved' | 'rejected' | 'expired' | 'executed' | 'failed';
      /** Format: date-time */
      proposed_at: string;
      /** Format: date-time */
      expires_at: string;
      decided_by: components['schemas']['AssistantPerson'];
      /** Format: date-time */
      decided_at: string | null;
      reason: string | null;
      /** @description What running it did (e.g. proposal_id), its error, or why it expired. */
      result: {
        [key: string]: unknown;
      } | null;
    };
    AssistantTriage: {
      id: string;
      alert_id: string;
      /** @enum {string} */
      provider: 'builtin' | 'openai';
      summary: string;
      checks: {
        name: string;
        /** @enum {string} */
        status: 'success' | 'skipped' | 'error';
        interesting: boolean;
        message: string;
        evidence: components['schemas']['EvidenceList'];
      }[];
      /**
       * @description Strongest first. Only records related to the alert are causes (same device, shared entity label or payload key,
       *     the rule's dedup labels, same source, site/GPU-node/integration topology, known precursor); time only decays the
       *     score and breaks ties. With nothing related the list holds no change (the summary says "No related change found;
       *     N unrelated change(s) in the window").
       */
      likely_causes: {
        /** @description What happened and the relation that earned it, e.g. "deploy.finished from ci (same service=checkout label, 2 min before)". */
        cause: string;
        /**
         * @description From the score: high ≥ 50, medium ≥ 25, low below.
         * @enum {string}
         */
        confidence: 'high' | 'medium' | 'low';
        /**
         * Format: int32
         * @description Relatedness score; null when no ranked candidate backs the cause.
         */
        score: number | null;
        relations: {
          /** @enum {string} */
          kind:
            | 'same_device'
            | 'shared_label'
            | 'dedup_label'
            | 'same_source'
            | 'site'
            | 'gpu_node'
            | 'integration'
            | 'precursor';
          detail: string;
        }[];
        evidence: components['schemas']['EvidenceList'];
      }[];
      actions: components['schemas']['AssistantAction'][];
      requested_by_id: string | null;
      /** Format: date-time */
      created_at: string;
    };
    AssistantMessage: {
      id: string;
      /** @enum {string} */
      role: 'user' | 'assistant';
      author: components['schemas']['AssistantPerson'];
      content: string;
      citations: components['schemas']['AssistantIdList'];
      action_ids: components['schemas']['AssistantIdList'];
      provider: string | null;
      /** Format: date-time */
      created_at: string;
    };
    AssistantConversation: {
      id: string;
      /** @enum {string} */
      kind: 'alert' | 'copilot';
      alert_id: string | null;
      title: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      messages: components['schemas']['AssistantMessage'][];
    };
    AssistantChatReply: {
      conversation_id: string;
      /** @description Your stored message. */
      message_id: string;
      /** @description The stored reply. */
      reply_id: string;
      reply: string;
      citations: components['schemas']['AssistantIdList'];
      actions: components['schemas']['AssistantAction'][];
    };
    /** @description An exact amount (decimal string) and its ISO 4217 currency */
    Money: {
      /** @example 12.50 */
      amount: string;
      /** @example USD */
      currency: string;
    };
    BillingPeriod: {
      /** Format: date-time */
      start: string;
      /** Format: date-time */
      end: string;
      time_zone: string;
    };
    BillingCurrent: {
      period: components['schemas']['BillingPeriod'];
      /** Format: date-time */
      as_of: string;
      currency: string;
      total: components['schemas']['Money'];
      skus: {
        sku_id: string;
        name: string;
        unit: string;
        quantity: string;
        unit_price: components['schemas']['Money'];
        amount: components['schemas']['Money'];
      }[];
      forecast: {
        amount: components['schemas']['Money'];
        /** @enum {string} */
        method: 'linear_run_rate';
        description: string;
      };
      budget: {
        amount: components['schemas']['Money'];
        forecast_percent: string;
        fired_thresholds: number[];
      } | null;
      metering: {
        /** Format: int32 */
        pending_windows: number;
        /** Format: date-time */
        last_computed_at: string | null;
      };
    };
    /**
     * @description What a breakdown groups by (one component, so generated clients declare it once).
     * @enum {string}
     */
    BillingGroupBy: 'source' | 'module' | 'sku' | 'meter';
    BillingBreakdown: {
      group_by: components['schemas']['BillingGroupBy'];
      period: components['schemas']['BillingPeriod'];
      currency: string;
      total: components['schemas']['Money'];
      rows: {
        key: string;
        sku_id: string;
        quantity: string;
        unit: string;
        amount: components['schemas']['Money'];
      }[];
    };
    BillingDaily: {
      /** Format: int32 */
      days: number;
      time_zone: string;
      currency: string;
      total: components['schemas']['Money'];
      series: {
        /** Format: date */
        date: string;
        total: components['schemas']['Money'];
        skus: {
          sku_id: string;
          quantity: string;
          amount: components['schemas']['Money'];
        }[];
      }[];
    };
    BillingLocalGpu: {
      period: components['schemas']['BillingPeriod'];
      currency: string;
      price_per_kwh: components['schemas']['Money'] | null;
      gpu_amortization_per_hour: components['schemas']['Money'] | null;
      models: {
        model: string;
        gpu_hours: string;
        energy_kwh: string;
        local_energy: components['schemas']['Money'];
        local_amortization: components['schemas']['Money'];
        local_total: components['schemas']['Money'];
        cloud_sku_id: string | null;
        cloud_unit_price: components['schemas']['Money'] | null;
        cloud_total: components['schemas']['Money'] | null;
        saving: components['schemas']['Money'] | null;
      }[];
      totals: {
        gpu_hours: string;
        energy_kwh: string;
        local_energy: components['schemas']['Money'];
        local_amortization: components['schemas']['Money'];
        local_total: components['schemas']['Money'];
        cloud_total: components['schemas']['Money'];
        saving: components['schemas']['Money'];
        compared_gpu_hours: string;
      };
      missing: {
        input: string;
        detail: string;
      }[];
    };
    BillingSku: {
      id: string;
      name: string;
      unit: string;
      unit_price: components['schemas']['Money'];
      list_price: components['schemas']['Money'];
      currency: string;
      meter: string;
      /** @enum {string} */
      kind: 'metered' | 'reference';
      gpu_model: string | null;
      service_name: string;
      service_category: string;
      overridden: boolean;
      custom: boolean;
    };
    Cluster: {
      id: string;
      name: string;
      url: string | null;
      /** @enum {string} */
      status: 'connected' | 'stale' | 'revoked';
      /** Format: date-time */
      last_seen_at: string | null;
      version: string | null;
      /** @description The latest heartbeat: `open_alerts` by severity and `device_count`. */
      summary: {
        [key: string]: unknown;
      };
      /** Format: date-time */
      revoked_at?: string | null;
      /** Format: date-time */
      created_at?: string;
    };
    DevicesDevice: {
      id: string;
      name: string;
      role: string | null;
      site: string | null;
      platform: string | null;
      management_address: string | null;
      labels: {
        [key: string]: string;
      };
      /** @description Other names events call the device by. An event links to the device whose name or alias equals its `source`, or its `host`, `device`, `instance` (without the port) or `node` label; alerts opened from it carry the device. */
      aliases: string[];
      /** @description Id in the upstream source of truth, set by its webhook. */
      external_id: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    DevicesDeviceInput: {
      name?: string;
      role?: string | null;
      site?: string | null;
      platform?: string | null;
      /** @description An IP address or a host name. */
      management_address?: string | null;
      labels?: {
        [key: string]: string;
      } | null;
      /** @description Other names events call the device by (their source, or host/device/instance/node label). */
      aliases?: string[] | null;
    };
    DevicesObservedConfig: {
      device_id: string;
      config: string | null;
      /** Format: date-time */
      observed_at: string | null;
    };
    DevicesDeviceDetail: components['schemas']['DevicesDevice'] & {
      /**
       * Format: int32
       * @description Current intent version; null before the first.
       */
      intent_version: number | null;
      /**
       * @description Result of the latest reconcile; null before the first.
       * @enum {string|null}
       */
      drift_status: 'in_sync' | 'drifted' | 'unknown' | null;
      /** Format: date-time */
      drift_checked_at: string | null;
    };
    DevicesIntent: {
      device_id: string;
      /** Format: int32 */
      version: number | null;
      config: string | null;
      comment: string | null;
      author: null | {
        id: string;
        email: string;
      };
      /** @description The approved proposal this version came from; null for a direct edit. */
      proposal_id: string | null;
      /** Format: date-time */
      created_at: string | null;
    };
    DevicesReviewSettings: {
      /** @description Every intent change needs an approved proposal; the direct intent edit answers 403 `PROPOSAL_REQUIRED`. */
      require_proposals: boolean;
    };
    DevicesWebhookResult: {
      /** @enum {string} */
      result: 'created' | 'updated' | 'deleted' | 'ignored';
      device_id: string | null;
      /** @description The timeline event recording the change. */
      event_id: string | null;
      /** @description Why a body was ignored. */
      detail?: string;
    };
    EscalationTarget: {
      /**
       * @description schedule: whoever is on call when the step runs.
       * @enum {string}
       */
      type: 'user' | 'schedule';
      id: string;
    };
    EscalationStepInput: {
      /**
       * Format: int32
       * @description Minutes after the previous step (the first after the alert opens); default 0 for the first, 5 after.
       */
      delay_minutes?: number | null;
      targets: components['schemas']['EscalationTarget'][];
    };
    EscalationPolicyCreate: {
      name: string;
      description?: string | null;
      /**
       * Format: int32
       * @description Times the steps run again after the last.
       */
      repeat?: number | null;
      /** @description Severities that page with high urgency (default critical). */
      high_urgency_severities?: ('info' | 'warning' | 'critical')[];
      steps: components['schemas']['EscalationStepInput'][];
    };
    EscalationPolicyUpdate: {
      name?: string;
      description?: string | null;
      /** Format: int32 */
      repeat?: number | null;
      high_urgency_severities?: ('info' | 'warning' | 'critical')[];
      /** @description Replaces the steps, in order. */
      steps?: components['schemas']['EscalationStepInput'][];
    };
    EscalationPolicy: {
      id: string;
      name: string;
      description: string | null;
      /** Format: int32 */
      repeat: number;
      high_urgency_severities: ('info' | 'warning' | 'critical')[];
      steps: {
        /** Format: int32 */
        position: number;
        /** Format: int32 */
        delay_minutes: number;
        targets: components['schemas']['EscalationTarget'][];
      }[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    PagingSettings: {
      default_escalation_policy_id: string | null;
    };
    AlertGroup: {
      id: string;
      group_key: string;
      /** @enum {string} */
      status: 'firing' | 'acknowledged' | 'snoozed' | 'resolved';
      /** @enum {string} */
      urgency: 'high' | 'low';
      policy_id: string | null;
      /**
       * Format: int32
       * @description The step that ran last (0 first; -1 none yet).
       */
      step: number;
      /**
       * Format: int32
       * @description 0 the first time through the steps.
       */
      round: number;
      /** Format: date-time */
      next_step_at: string | null;
      /** Format: date-time */
      snoozed_until: string | null;
      /** Format: date-time */
      acknowledged_at: string | null;
      acknowledged_by_id: string | null;
      /** Format: date-time */
      resolved_at: string | null;
      alert_ids: string[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @enum {string} */
    EventsSeverity: 'info' | 'warning' | 'critical';
    /** @description String keys to string values. */
    EventsLabels: {
      [key: string]: string;
    } | null;
    /** @description Shape A or shape B (see the operation). One of `type` / `kind` is required. */
    EventsEnvelope:
      | {
          /** @description Shape A: `<system>.<verb>`, e.g. deploy.started. */
          type?: string;
          /** @description Shape B: the same as `type`. */
          kind?: string;
          module?: string | null;
          /** @description Stable identifier of the sender. */
          source: string;
          summary?: string | null;
          /** @description Default info. */
          severity?: components['schemas']['EventsSeverity'] | null;
          labels?: components['schemas']['EventsLabels'];
          /** @description Any JSON object. */
          payload?: {
            [key: string]: unknown;
          } | null;
          /** @description Ignored; the tenant comes from the credential. */
          tenant_id?: unknown;
          /**
           * @description PagerDuty Events v2 semantics. `trigger` (default): rules may open or bump an alert.
           *     `acknowledge` / `resolve`: acknowledges / resolves the live alert whose dedup key is `dedup_key`
           *     (its timeline names this event as the actor), and resolves the live alerts of match rules whose
           *     resolve criteria the event meets; never opens one. One that matches nothing stays on the timeline.
           *     Stored as the reserved label `event_action`.
           * @enum {string|null}
           */
          event_action?: 'trigger' | 'acknowledge' | 'resolve' | null;
          /**
           * @description The alert this event belongs to. A rule without `dedup_key_template` uses it as its alert's dedup
           *     key, so the sender's later `resolve` closes that alert. Stored as the reserved label `dedup_key`.
           */
          dedup_key?: string | null;
        }
      | unknown
      | unknown;
    /** @description Shape B. */
    EventsWebhookEnvelope: {
      kind: string;
      source: string;
      severity?: components['schemas']['EventsSeverity'] | null;
      labels?: components['schemas']['EventsLabels'];
      payload?: {
        [key: string]: unknown;
      } | null;
      summary?: string | null;
      module?: string | null;
      /** @description Ignored; the tenant comes from the webhook. */
      tenant_id?: unknown;
      /**
       * @description PagerDuty Events v2 semantics. `trigger` (default): rules may open or bump an alert.
       *     `acknowledge` / `resolve`: acknowledges / resolves the live alert whose dedup key is `dedup_key`
       *     (its timeline names this event as the actor), and resolves the live alerts of match rules whose
       *     resolve criteria the event meets; never opens one. One that matches nothing stays on the timeline.
       *     Stored as the reserved label `event_action`.
       * @enum {string|null}
       */
      event_action?: 'trigger' | 'acknowledge' | 'resolve' | null;
      /**
       * @description The alert this event belongs to. A rule without `dedup_key_template` uses it as its alert's dedup
       *     key, so the sender's later `resolve` closes that alert. Stored as the reserved label `dedup_key`.
       */
      dedup_key?: string | null;
    };
    EventsAccepted: {
      /** @description The stored event's id (UUIDv7, time-ordered). */
      id: string;
      /** @enum {string} */
      status: 'accepted';
    };
    /** @description Up to 100 envelopes, each stored or rejected on its own. */
    EventsEnvelopeBatch: components['schemas']['EventsEnvelope'][];
    EventsBatchAccepted: {
      /**
       * Format: int32
       * @description Items stored.
       */
      accepted: number;
      /**
       * Format: int32
       * @description Items refused.
       */
      rejected: number;
      /** @description One result per item, in request order. */
      items: (
        | {
            /** Format: int32 */
            index: number;
            /** @enum {string} */
            status: 'accepted';
            /** @description The stored event's id. */
            id: string;
          }
        | {
            /** Format: int32 */
            index: number;
            /** @enum {string} */
            status: 'rejected';
            code: components['schemas']['ErrorCode'];
            /** @description A message, or for VALIDATION_FAILED the offending fields of the item. */
            detail:
              | string
              | {
                  loc: string[];
                  msg: string;
                }[];
          }
      )[];
    };
    EventsWebhookAccepted: components['schemas']['EventsAccepted'] & {
      event: components['schemas']['EventsEvent'];
    };
    EventsEvent: {
      id: string;
      /** @description `type` of shape A or `kind` of shape B. */
      type: string;
      module?: string | null;
      source: string;
      summary?: string | null;
      severity: components['schemas']['EventsSeverity'];
      labels: {
        [key: string]: string;
      };
      payload: {
        [key: string]: unknown;
      };
      /** @enum {string} */
      received_via: 'ingest' | 'webhook' | 'sot' | 'system';
      /** Format: date-time */
      received_at: string;
    };
    GpuDiagnosticCheck: {
      name: string;
      gpu_uuid: string | null;
      /** @enum {string} */
      status: 'pass' | 'warn' | 'fail' | 'skip';
      detail: string;
    };
    GpuDiagnostic: {
      id: string;
      /** @enum {string} */
      status: 'queued' | 'running' | 'completed' | 'failed';
      /** @enum {string|null} */
      result: 'pass' | 'warn' | 'fail' | null;
      /**
       * Format: int32
       * @enum {integer}
       */
      level: 1 | 2 | 3;
      gpu: string | null;
      node: string | null;
      gpu_ids: string[];
      checks: components['schemas']['GpuDiagnosticCheck'][];
      error: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      finished_at: string | null;
    };
    /** @description Milliseconds; null when nothing was measured. */
    LatencyStat: {
      p50: number | null;
      p90: number | null;
      p99: number | null;
      avg: number | null;
    };
    AiperfResults: {
      ttft_ms: components['schemas']['LatencyStat'];
      itl_ms: components['schemas']['LatencyStat'];
      request_latency_ms: components['schemas']['LatencyStat'];
      output_tokens_per_s: number | null;
      requests_per_s: number | null;
      /** Format: int32 */
      errors: number;
      /** Format: int32 */
      requests: number;
      /** Format: int32 */
      output_tokens: number;
      duration_s: number;
      error_samples: string[];
    };
    AiperfGpuLoad: {
      gpu_id: string;
      uuid: string;
      node: string;
      /** Format: int32 */
      index: number;
      /** Format: int32 */
      samples: number;
      avg_utilization: number | null;
      max_utilization: number | null;
      avg_power_w: number | null;
      max_power_w: number | null;
      max_memory_used_mib: number | null;
    };
    AiperfRun: {
      id: string;
      /** @enum {string} */
      status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
      endpoint_url: string;
      model: string;
      /** @enum {string} */
      mode: 'concurrency' | 'request_rate';
      /** Format: int32 */
      concurrency: number | null;
      request_rate: number | null;
      /** Format: int32 */
      request_count: number | null;
      /** Format: int32 */
      duration_s: number | null;
      /** Format: int32 */
      input_tokens: number;
      /** Format: int32 */
      output_tokens: number;
      streaming: boolean;
      results: components['schemas']['AiperfResults'] | null;
      /** @description Each GPU's load during the run. */
      gpu_telemetry: components['schemas']['AiperfGpuLoad'][];
      error: string | null;
      /** Format: date-time */
      cancel_requested_at: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      finished_at: string | null;
    };
    /** @description One value per metric; null when not reported or not supported. */
    GpuValues: {
      /** @description % */
      utilization: number | null;
      memory_used_mib: number | null;
      memory_total_mib: number | null;
      temperature_c: number | null;
      power_w: number | null;
      power_limit_w: number | null;
      /** @description Energy since boot. */
      energy_j: number | null;
      /** @description The last XID code reported. */
      xid: number | null;
      /** @description Uncorrected (double-bit) ECC errors. */
      ecc_dbe: number | null;
      sm_clock_mhz: number | null;
    };
    GpuSampleIn: {
      /** @description The GPU UUID, e.g. `GPU-6e0b…`. */
      uuid: string;
      /** Format: int32 */
      index: number;
      node?: string;
      model?: string | null;
      /** Format: date-time */
      at?: string;
      utilization?: number | null;
      memory_used_mib?: number | null;
      memory_total_mib?: number | null;
      temperature_c?: number | null;
      power_w?: number | null;
      power_limit_w?: number | null;
      energy_j?: number | null;
      xid?: number | null;
      ecc_dbe?: number | null;
      sm_clock_mhz?: number | null;
    };
    GpuRef: {
      id: string;
      uuid: string;
      node: string;
      /** Format: int32 */
      index: number;
    };
    Gpu: {
      id: string;
      uuid: string;
      node: string;
      /** Format: int32 */
      index: number;
      model: string | null;
      /** @enum {string} */
      source: 'dcgm' | 'nvidia-smi';
      /** @enum {string} */
      health: 'healthy' | 'warning' | 'critical' | 'missing' | 'unknown';
      health_reasons: string[];
      latest: components['schemas']['GpuValues'];
      /** Format: int32 */
      last_xid: number | null;
      /** Format: date-time */
      last_xid_at: string | null;
      /** Format: date-time */
      first_seen_at: string;
      /** Format: date-time */
      last_seen_at: string;
    };
    GpuFleet: {
      /** Format: int32 */
      gpus: number;
      /** Format: int32 */
      nodes: number;
      by_health: {
        /** Format: int32 */
        healthy: number;
        /** Format: int32 */
        warning: number;
        /** Format: int32 */
        critical: number;
        /** Format: int32 */
        missing: number;
        /** Format: int32 */
        unknown: number;
      };
      avg_utilization: number | null;
      memory_used_mib: number;
      memory_total_mib: number;
      power_w: number;
    };
    GpuEvent: {
      id: string;
      /** @description `gpu.xid`, `gpu.thermal`, `gpu.thermal_recovered`, `gpu.ecc`, `gpu.missing` */
      type: string;
      /** @enum {string} */
      severity: 'info' | 'warning' | 'critical';
      summary: string | null;
      node: string | null;
      gpu_uuid: string | null;
      /** Format: int32 */
      gpu_index: number | null;
      /** @description For `gpu.xid`: `xid`, `meaning`, `action`. */
      payload: {
        [key: string]: unknown;
      };
      /** Format: date-time */
      received_at: string;
    };
    RoutingInhibitRule: {
      id: string;
      name: string | null;
      source_matchers: components['schemas']['RoutingMatcher'][];
      /** @description Empty means every alert. */
      target_matchers: components['schemas']['RoutingMatcher'][];
      equal: string[];
      /** Format: date-time */
      created_at: string;
    };
    RoutingInhibitRuleUpdate: {
      name?: string | null;
      source_matchers?: components['schemas']['RoutingMatcher'][];
      target_matchers?: components['schemas']['RoutingMatcher'][];
      equal?: string[];
    };
    RoutingInhibitRuleCreate: WithRequired<components['schemas']['RoutingInhibitRuleUpdate'], 'source_matchers'>;
    RoutingPagingExplanation: {
      /** @description Whether it pages (or paged) someone: nothing muted it and its group has an escalation policy. */
      pages: boolean;
      /** Format: int32 */
      paged_count: number;
      summary: string;
      reasons: {
        /** @enum {string} */
        kind: 'status' | 'maintenance_window' | 'silence' | 'inhibition' | 'route' | 'group' | 'policy' | 'pages';
        message: string;
        blocks: boolean;
        silence_id?: string | null;
        inhibiting_alert_id?: string | null;
        maintenance_window_id?: string | null;
        group_id?: string | null;
        policy_id?: string | null;
        /** @description A `route` reason's route (the one its group formed on). */
        route_id?: string | null;
        /** @description A `route` reason's route ids from the root to that route. */
        route_path?: string[] | null;
        /** @description A `route` reason's receiver (null the default, the tenant default policy). */
        receiver?: string | null;
      }[];
    };
    /** @enum {string} */
    IntegrationHealthStatus: 'healthy' | 'degraded' | 'failing' | 'unknown';
    Integration: {
      id: string;
      provider: string;
      name: string;
      enabled: boolean;
      /** @description The own config; secret fields show `********`. */
      config: {
        [key: string]: unknown;
      };
      /** Format: int32 */
      freshness_seconds: number | null;
      escalation_policy_id?: string | null;
      /** @description Absolute when PUBLIC_BASE_URL is set, else a path under the service origin. */
      push_url: string | null;
      push_token_prefix?: string | null;
      /** Format: date-time */
      previous_push_token_valid_until?: string | null;
      health: {
        status: components['schemas']['IntegrationHealthStatus'];
        reason: string | null;
        /** Format: date-time */
        checked_at: string | null;
      };
      /** Format: date-time */
      last_event_at: string | null;
      /** Format: date-time */
      last_pull_at?: string | null;
      last_error?: string | null;
      /** Format: date-time */
      last_error_at?: string | null;
      /** @description In the answer of PATCH /integrations/{integration_id}, the stored secret fields the change dropped because the config now calls another origin (URL host, scheme or port) and did not give them again (`********` does not count); empty elsewhere. */
      secrets_cleared?: string[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at?: string;
    };
    IntegrationHealthChecks: {
      config: {
        ok: boolean;
        problems: {
          field: string;
          message: string;
        }[];
      };
      reachable: {
        /** @description Null when the provider has no probe or no URL is configured. */
        ok: boolean | null;
        /** Format: int32 */
        latency_ms: number | null;
        message: string;
      };
      freshness: {
        /** @description Null when the freshness check is turned off. */
        ok: boolean | null;
        /** Format: int32 */
        expected_seconds: number | null;
        /** Format: date-time */
        last_event_at: string | null;
        /** Format: int32 */
        age_seconds: number | null;
        message: string;
      };
      errors: {
        ok: boolean;
        /** Format: int32 */
        count: number;
        last_error: string | null;
        /** Format: date-time */
        last_error_at: string | null;
      };
    };
    IntegrationHealthEntry: {
      status: components['schemas']['IntegrationHealthStatus'];
      checks: components['schemas']['IntegrationHealthChecks'] | null;
      reason: string | null;
      /** Format: date-time */
      checked_at: string | null;
    };
    IntegrationHealthResponse: {
      integration_id: string;
      status: components['schemas']['IntegrationHealthStatus'];
      /** @description Null until the first check. */
      checks: components['schemas']['IntegrationHealthChecks'] | null;
      reason: string | null;
      /** Format: date-time */
      checked_at: string | null;
      history: components['schemas']['IntegrationHealthEntry'][];
    };
    IntegrationDryRun: {
      /** @enum {boolean} */
      dry_run: true;
      provider: string;
      name: string;
      checks: {
        config: {
          ok: boolean;
          problems: {
            [key: string]: unknown;
          }[];
        };
        /** @description Null when the provider has no probe or no URL was given. */
        reachable: null | {
          ok: boolean | null;
          /** Format: int32 */
          latency_ms: number | null;
          message: string;
        };
      };
    };
    IntegrationProviderConfig: {
      provider: string;
      /** @description Secret fields show `********`. */
      config: {
        [key: string]: unknown;
      };
      secret_fields: string[];
      /** Format: date-time */
      updated_at: string | null;
      /**
       * Format: int32
       * @description Integrations of the provider (enabled or not): the ones that inherit this config.
       */
      integration_count: number;
      /** @description What to do next when no enabled integration inherits the config (a provider config alone is never pulled), e.g. create one with POST /integrations; else null. */
      hint: string | null;
      /** @description In the answer of PUT, the stored secret fields dropped because the config now calls another origin and did not give them again; empty elsewhere. */
      secrets_cleared?: string[];
    };
    IntegrationIngestResult: {
      provider: string;
      /** @description Set when no enabled integration of the provider was there to pull (`integrations` is empty) saying what to do, create one or enable one; else null. */
      hint: string | null;
      /** Format: int32 */
      events: number;
      /** Format: int32 */
      alerts_opened: number;
      /** Format: int32 */
      alerts_resolved: number;
      integrations: {
        integration_id: string;
        name: string;
        ok: boolean;
        /** Format: int32 */
        events: number;
        /** Format: int32 */
        alerts_opened: number;
        /** Format: int32 */
        alerts_resolved: number;
        error: string | null;
        /** @description Provider figures, e.g. `firing`, `targets_up`, `targets_down`; dcgm adds `gpus`, `samples` (new samples stored) and `gpu_events` (hardware events written to the timeline). */
        summary: {
          [key: string]: number;
        };
      }[];
    };
    ServerVersion: {
      /** @example 1.0.0 */
      version: string;
      schema_hash: string;
      features: string[];
    };
    /** @enum {string} */
    NotificationsKind: 'email' | 'ntfy' | 'slack' | 'mattermost' | 'teams' | 'discord' | 'webhook' | 'inbox';
    /** @enum {string} */
    NotificationsUrgency: 'high' | 'low';
    NotificationsContactMethod: {
      id: string;
      kind: components['schemas']['NotificationsKind'];
      name: string;
      address: string;
      topic: string | null;
      enabled: boolean;
      has_secret: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    NotificationsRule: {
      id: string;
      urgency: components['schemas']['NotificationsUrgency'];
      /** Format: int32 */
      delay_minutes: number;
      contact_method: {
        id: string;
        kind: components['schemas']['NotificationsKind'];
        name: string;
      };
      /** Format: date-time */
      created_at: string;
    };
    NotificationsNotification: {
      id: string;
      user: {
        id: string;
        email: string;
      };
      kind: components['schemas']['NotificationsKind'];
      contact_method?: {
        id?: string;
        name?: string;
      } | null;
      group_id?: string | null;
      alert?: {
        id?: string;
        summary?: string;
        severity?: string;
      } | null;
      /** Format: int32 */
      step?: number | null;
      /** Format: int32 */
      round?: number | null;
      reason: string;
      /** @enum {string} */
      status: 'pending' | 'sent' | 'failed' | 'skipped';
      /** Format: int32 */
      attempts: number;
      error?: string | null;
      /** Format: date-time */
      due_at: string;
      /** Format: date-time */
      sent_at?: string | null;
      /** Format: int32 */
      latency_ms?: number | null;
      /** Format: date-time */
      read_at?: string | null;
      /** Format: date-time */
      created_at: string;
    };
    ProposalsProposal: {
      id: string;
      title: string;
      kind: string;
      /** @enum {string} */
      status: 'proposed' | 'approved' | 'denied' | 'applied' | 'failed';
      /** @description Null once the target device has been deleted. */
      device_id: string | null;
      proposed_intent: string | null;
      /** @description What approving would change, for the reviewer. A unified diff of the device's current intent (`--- current/<device>`) against `proposed_intent` (`+++ proposed/<device>`), made like the drift diff; empty when they are equal, null for an action proposal or a deleted device. */
      diff: string | null;
      action: string | null;
      /** @description Why the proposer wants the change. */
      reason: string | null;
      /**
       * Format: int32
       * @description Bumped by every edit; an approval holds for one revision only.
       */
      revision: number;
      proposer_id: string;
      approver_id: string | null;
      /** Format: date-time */
      approved_at?: string | null;
      /** Format: int32 */
      approved_revision?: number | null;
      denied_by_id?: string | null;
      /** Format: date-time */
      denied_at?: string | null;
      denial_reason?: string | null;
      /** Format: date-time */
      applied_at?: string | null;
      failure_reason?: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    /** @description A report query document (see GET /reports/query/schema for the per-entity fields and ops). */
    ReportsQueryBody: {
      /** @enum {string} */
      entity: 'events' | 'alerts' | 'devices' | 'proposals';
      /**
       * Format: int32
       * @description Hours back from now; 24 when left out; null: no window (devices and proposals only).
       */
      since_hours?: number | null;
      filters?: {
        field: string;
        /** @enum {string} */
        op: 'eq' | 'ne' | 'in' | 'not_in' | 'contains' | 'prefix' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';
        value?: unknown;
      }[];
      group_by?: string[];
      aggregate?:
        | ('count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max' | 'p50' | 'p95')
        | {
            /** @enum {string} */
            fn: 'count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max' | 'p50' | 'p95';
            field?: string;
          }[];
      /** @enum {string|null} */
      bucket?: '1m' | '5m' | '15m' | '1h' | '6h' | '12h' | '1d' | '1w' | null;
      order_by?: (
        | string
        | {
            field: string;
            /** @enum {string} */
            dir?: 'asc' | 'desc';
          }
      )[];
      /**
       * Format: int32
       * @description 1000 when left out.
       */
      limit?: number;
      columns?: string[];
    };
    /** @description The query document of POST /reports/query; `limit` defaults to and may be at most 2000000. */
    ReportsExportBody: {
      /** @enum {string} */
      entity: 'events' | 'alerts' | 'devices' | 'proposals';
      /**
       * Format: int32
       * @description Hours back from now; 24 when left out; null: no window (devices and proposals only).
       */
      since_hours?: number | null;
      filters?: {
        field: string;
        /** @enum {string} */
        op: 'eq' | 'ne' | 'in' | 'not_in' | 'contains' | 'prefix' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';
        value?: unknown;
      }[];
      group_by?: string[];
      aggregate?:
        | ('count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max' | 'p50' | 'p95')
        | {
            /** @enum {string} */
            fn: 'count' | 'count_distinct' | 'sum' | 'avg' | 'min' | 'max' | 'p50' | 'p95';
            field?: string;
          }[];
      /** @enum {string|null} */
      bucket?: '1m' | '5m' | '15m' | '1h' | '6h' | '12h' | '1d' | '1w' | null;
      order_by?: (
        | string
        | {
            field: string;
            /** @enum {string} */
            dir?: 'asc' | 'desc';
          }
      )[];
      /**
       * Format: int32
       * @description 2000000 when left out.
       */
      limit?: number;
      columns?: string[];
    };
    ReportsResult: {
      /** @enum {string} */
      entity: 'events' | 'alerts' | 'devices' | 'proposals';
      columns: {
        name: string;
        /** @enum {string} */
        type: 'string' | 'integer' | 'number' | 'timestamp' | 'boolean' | 'json';
      }[];
      rows: {
        [key: string]: unknown;
      }[];
      /** Format: int32 */
      row_count: number;
      /** @description More rows matched than `limit`. */
      truncated: boolean;
      /** @description Set when the report ran on a read replica (REPORTS_DATABASE_URL) that was behind the primary by more than REPORTS_LAG_NOTICE_SECONDS; rows written in that time are missing. */
      replica_lag_seconds?: number;
    };
    ReportsFieldProblem: {
      loc: string[];
      msg: string;
    };
    ReportsSavedReport: {
      id: string;
      name: string;
      description: string | null;
      /** @enum {string} */
      entity: 'events' | 'alerts' | 'devices' | 'proposals';
      query: {
        [key: string]: unknown;
      };
      owner_id: string;
      /** @description Whether the caller may change or delete it. */
      can_edit: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    ReportsPosition: {
      /** Format: int32 */
      x: number;
      /** Format: int32 */
      y: number;
      /** Format: int32 */
      w: number;
      /** Format: int32 */
      h: number;
    };
    ReportsPanelInput: {
      title: string;
      saved_report_id: string;
      /** @enum {string} */
      viz: 'table' | 'line' | 'bar' | 'stat';
      position: components['schemas']['ReportsPosition'];
    };
    ReportsPanel: {
      /** Format: int32 */
      index: number;
      title: string;
      saved_report_id: string;
      /** @enum {string} */
      viz: 'table' | 'line' | 'bar' | 'stat';
      position: components['schemas']['ReportsPosition'];
    };
    ReportsDashboard: {
      id: string;
      name: string;
      owner_id: string;
      can_edit: boolean;
      panels: components['schemas']['ReportsPanel'][];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    ReportsScheduleFields: {
      saved_report_id?: string;
      /** @description The outbound webhook that receives `report.delivered`. */
      webhook_id?: string;
      /**
       * @description A cron pattern of 5 or 6 fields, e.g. `0 8 * * 1` (Mondays 08:00).
       * @example 0 8 * * 1
       */
      cron?: string;
      /** @description IANA time zone of the pattern; UTC when a schedule is created without one, unchanged when an update leaves it out. */
      timezone?: string;
      /**
       * @description json when a schedule is created without one, unchanged when an update leaves it out.
       * @enum {string}
       */
      format?: 'csv' | 'json';
      /** @description Values overriding the report filters, `since_hours` or `limit` at each run. */
      parameters?: {
        [key: string]: unknown;
      };
      enabled?: boolean;
    };
    ReportsSchedule: {
      id: string;
      saved_report_id: string | null;
      webhook_id: string;
      cron: string;
      timezone: string;
      /** @enum {string} */
      format: 'csv' | 'json';
      parameters: {
        [key: string]: unknown;
      };
      enabled: boolean;
      disabled_reason: string | null;
      /** Format: date-time */
      last_run_at: string | null;
      last_outbox_id?: string | null;
      last_error?: string | null;
      owner_id: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    RoutingRoute: {
      id: string;
      parent_id: string | null;
      matchers: components['schemas']['RoutingMatcher'][];
      continue: boolean;
      /** @description Null inherits (at the root: the default policy). */
      receiver: string | null;
      group_by: string[] | null;
      /** @example 30s */
      group_wait: string | null;
      /** @example 5m */
      group_interval: string | null;
      /** @example 4h */
      repeat_interval: string | null;
      mute_time_intervals: string[];
      active_time_intervals: string[];
    };
    RoutingRouteInput: {
      id?: string | null;
      parent_id?: string | null;
      matchers?: components['schemas']['RoutingMatcher'][];
      continue?: boolean;
      receiver?: string | null;
      group_by?: string[] | null;
      group_wait?: string | null;
      group_interval?: string | null;
      repeat_interval?: string | null;
      mute_time_intervals?: string[];
      active_time_intervals?: string[];
    };
    RoutingTree: {
      routes: components['schemas']['RoutingRoute'][];
      /** @description False while it is the implicit default tree. */
      custom: boolean;
      /** Format: date-time */
      updated_at: string | null;
    };
    RoutingReceiver: {
      id: string;
      name: string;
      escalation_policy_id: string | null;
      outbound_webhook_ids: string[];
      /** @description The receiver's Alertmanager integrations as imported (not used). */
      imported_config: unknown;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    RoutingReceiverUpdate: {
      name?: string;
      escalation_policy_id?: string | null;
      outbound_webhook_ids?: string[];
    };
    RoutingRouteMatch: {
      route_id: string;
      path: string[];
      receiver: string | null;
      receiver_detail: components['schemas']['RoutingReceiver'] | null;
      group_by: string[];
      group_by_all: boolean;
      group_wait_seconds: number;
      group_interval_seconds: number;
      repeat_interval_seconds: number;
      continue: boolean;
      muted_now: boolean;
    };
    /** @enum {string} */
    RoutingSilenceState: 'pending' | 'active' | 'expired';
    RoutingMatcher: {
      name: string;
      /** @enum {string} */
      type: '=' | '!=' | '=~' | '!~';
      value: string;
    };
    RoutingSilence: {
      id: string;
      matchers: components['schemas']['RoutingMatcher'][];
      /** Format: date-time */
      starts_at: string;
      /** Format: date-time */
      ends_at: string;
      created_by: string;
      comment: string;
      state: components['schemas']['RoutingSilenceState'];
      time_interval_id: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    RoutingSilenceUpdate: {
      matchers?: components['schemas']['RoutingMatcher'][];
      /** Format: date-time */
      starts_at?: string;
      /** Format: date-time */
      ends_at?: string;
      created_by?: string;
      comment?: string;
      time_interval_id?: string | null;
    };
    RoutingSilenceCreate: WithRequired<
      components['schemas']['RoutingSilenceUpdate'],
      'matchers' | 'ends_at' | 'comment'
    >;
    /** @description One spec; every field present must match, an absent field matches everything. */
    RoutingTimeIntervalSpec: {
      times?: {
        /** @example 09:00 */
        start_time: string;
        /** @example 17:00 */
        end_time: string;
      }[];
      /**
       * @example [
       *       "monday:friday"
       *     ]
       */
      weekdays?: string[];
      /**
       * @example [
       *       "1:5",
       *       "-1"
       *     ]
       */
      days_of_month?: string[];
      /**
       * @example [
       *       "january:march"
       *     ]
       */
      months?: string[];
      /**
       * @example [
       *       "2026:2027"
       *     ]
       */
      years?: string[];
      /** @example Europe/Berlin */
      location?: string;
    };
    RoutingTimeInterval: {
      id: string;
      name: string;
      intervals: components['schemas']['RoutingTimeIntervalSpec'][];
      active_now: boolean;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    RoutingTimeIntervalUpdate: {
      name?: string;
      intervals?: components['schemas']['RoutingTimeIntervalSpec'][];
    };
    RoutingTimeIntervalCreate: WithRequired<components['schemas']['RoutingTimeIntervalUpdate'], 'name' | 'intervals'>;
    /**
     * @description `match`: each matching event opens or bumps an alert. `absence`: a source that goes quiet for `window_seconds` opens one (heartbeats).
     * @enum {string}
     */
    RulesKind: 'match' | 'absence';
    /** @enum {string} */
    RulesSeverity: 'info' | 'warning' | 'critical';
    RulesSuggestion: {
      /** @description Stable key, e.g. `gpu.xid`, `heartbeat.<source>`. */
      key: string;
      name: string;
      description: string;
      kind: components['schemas']['RulesKind'];
      enabled: boolean;
      /** @description The rule enabled from it, if any. */
      rule_id: string | null;
      input: components['schemas']['RulesAlertRuleCreate'];
    };
    RulesPayloadCondition: {
      /** @description Dotted path into the payload, e.g. `build.status` or `items.0.name`. */
      path: string;
      /** @enum {string} */
      op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'exists' | 'in';
      /** @description Required for eq, neq and contains; a number for gt, gte, lt and lte; true or false (default true) for exists; a list for in. */
      value?: unknown;
    };
    RulesAlertRuleInput: {
      name?: string;
      enabled?: boolean | null;
      /** @description Event type glob: `*` within one dot-separated segment, `**` across segments, `?` one character. */
      type_glob?: string | null;
      /** @description Event severities that match; empty or null means any. */
      severities?: components['schemas']['RulesSeverity'][] | null;
      module?: string | null;
      source?: string | null;
      /** @description Every label here must be on the event with the same value. */
      labels?: {
        [key: string]: string;
      } | null;
      payload_conditions?: components['schemas']['RulesPayloadCondition'][] | null;
      /**
       * Format: int32
       * @description Absence rules only: seconds of silence that open an alert.
       */
      window_seconds?: number | null;
      /** @description Severity of the alerts the rule opens (default `warning`). */
      alert_severity?: components['schemas']['RulesSeverity'] | null;
      /** @description e.g. `{{type}} on {{source}}`, `{{payload.x}}`, `{{labels.env}}`, `{{rule.name}}`. */
      summary_template?: string | null;
      /** @description Same placeholders. Default: the event's `dedup_key` (for integration events the upstream alert's key, e.g. Alertmanager's fingerprint), else `<rule id>:<source>:<label fingerprint>:<type>`, so distinct problems stay distinct alerts: two event types, two sources or two label sets under one rule open two alerts. The label fingerprint hashes the event's sorted labels minus volatile keys (`value`, `count`, `timestamp`, `time`, `request_id`, `trace_id`, `span_id`), as Alertmanager's fingerprint does. An event meeting `resolve_type_glob` resolves every live alert of the rule with the same source and label fingerprint, whatever its type. Alerts opened before this default (key `<rule id>:<source>`) keep their key while live. To merge several problems into one alert, set a template, e.g. `{{rule.id}}:{{source}}`. */
      dedup_key_template?: string | null;
      /** @description Match rules: each bump re-renders the alert summary from its latest event (default false: the first event names the alert). */
      summary_follows_latest?: boolean | null;
      /** @description Match rules: an event of this type (meeting `resolve_conditions` and the rule's module, source and labels) resolves the rule's live alert with the same dedup key, e.g. `gpu.thermal_recovered`. An event matching the rule with `event_action: resolve` does too. */
      resolve_type_glob?: string | null;
      /** @description Conditions on the resolving event's payload (needs `resolve_type_glob`). */
      resolve_conditions?: components['schemas']['RulesPayloadCondition'][] | null;
      /**
       * Format: int32
       * @description Match rules: a live alert with no matching event for this long resolves by itself.
       */
      auto_resolve_after_seconds?: number | null;
      /** @description The escalation policy that pages this rule's alerts (overrides the tenant default); null: the default. Another tenant's or a missing policy is 422. */
      escalation_policy_id?: string | null;
    };
    RulesAlertRuleCreate: {
      name: string;
      kind?: components['schemas']['RulesKind'];
      enabled?: boolean | null;
      /** @description Event type glob: `*` within one dot-separated segment, `**` across segments, `?` one character. */
      type_glob?: string | null;
      /** @description Event severities that match; empty or null means any. */
      severities?: components['schemas']['RulesSeverity'][] | null;
      module?: string | null;
      source?: string | null;
      /** @description Every label here must be on the event with the same value. */
      labels?: {
        [key: string]: string;
      } | null;
      payload_conditions?: components['schemas']['RulesPayloadCondition'][] | null;
      /**
       * Format: int32
       * @description Absence rules only: seconds of silence that open an alert.
       */
      window_seconds?: number | null;
      /** @description Severity of the alerts the rule opens (default `warning`). */
      alert_severity?: components['schemas']['RulesSeverity'] | null;
      /** @description e.g. `{{type}} on {{source}}`, `{{payload.x}}`, `{{labels.env}}`, `{{rule.name}}`. */
      summary_template?: string | null;
      /** @description Same placeholders. Default: the event's `dedup_key` (for integration events the upstream alert's key, e.g. Alertmanager's fingerprint), else `<rule id>:<source>:<label fingerprint>:<type>`, so distinct problems stay distinct alerts: two event types, two sources or two label sets under one rule open two alerts. The label fingerprint hashes the event's sorted labels minus volatile keys (`value`, `count`, `timestamp`, `time`, `request_id`, `trace_id`, `span_id`), as Alertmanager's fingerprint does. An event meeting `resolve_type_glob` resolves every live alert of the rule with the same source and label fingerprint, whatever its type. Alerts opened before this default (key `<rule id>:<source>`) keep their key while live. To merge several problems into one alert, set a template, e.g. `{{rule.id}}:{{source}}`. */
      dedup_key_template?: string | null;
      /** @description Match rules: each bump re-renders the alert summary from its latest event (default false: the first event names the alert). */
      summary_follows_latest?: boolean | null;
      /** @description Match rules: an event of this type (meeting `resolve_conditions` and the rule's module, source and labels) resolves the rule's live alert with the same dedup key, e.g. `gpu.thermal_recovered`. An event matching the rule with `event_action: resolve` does too. */
      resolve_type_glob?: string | null;
      /** @description Conditions on the resolving event's payload (needs `resolve_type_glob`). */
      resolve_conditions?: components['schemas']['RulesPayloadCondition'][] | null;
      /**
       * Format: int32
       * @description Match rules: a live alert with no matching event for this long resolves by itself.
       */
      auto_resolve_after_seconds?: number | null;
      /** @description The escalation policy that pages this rule's alerts (overrides the tenant default); null: the default. Another tenant's or a missing policy is 422. */
      escalation_policy_id?: string | null;
    };
    RulesAlertRule: {
      id: string;
      name: string;
      kind: components['schemas']['RulesKind'];
      enabled: boolean;
      type_glob: string | null;
      severities: components['schemas']['RulesSeverity'][];
      module: string | null;
      source: string | null;
      labels: {
        [key: string]: string;
      };
      payload_conditions: components['schemas']['RulesPayloadCondition'][];
      /** Format: int32 */
      window_seconds: number | null;
      alert_severity: components['schemas']['RulesSeverity'];
      summary_template: string | null;
      dedup_key_template: string | null;
      summary_follows_latest: boolean;
      resolve_type_glob: string | null;
      resolve_conditions: components['schemas']['RulesPayloadCondition'][];
      /** Format: int32 */
      auto_resolve_after_seconds: number | null;
      escalation_policy_id: string | null;
      /** @description The suggested rule it was enabled from (GET /alert-rules/suggestions). */
      suggestion_key: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    ScheduleOnCall: {
      schedule_id: string;
      /** Format: date-time */
      at: string;
      shift: components['schemas']['ScheduleShift'] | null;
    };
    ScheduleOverride: {
      id: string;
      schedule_id: string;
      user_id: string;
      /** Format: date-time */
      starts_at: string;
      /** Format: date-time */
      ends_at: string;
      /** Format: date-time */
      created_at: string;
    };
    ScheduleLayerInput: {
      name?: string | null;
      /**
       * Format: date-time
       * @description When the first turn begins.
       */
      starts_at: string;
      /** @enum {string} */
      rotation: 'daily' | 'weekly' | 'custom';
      /**
       * Format: int32
       * @description custom rotations only.
       */
      turn_length_seconds?: number | null;
      /** @description HH:mm local (default 09:00). */
      handoff_time?: string | null;
      /**
       * Format: int32
       * @description weekly: ISO weekday (default 1, Monday).
       */
      handoff_weekday?: number | null;
      user_ids: string[];
      /** @description daily: every day start..end; weekly: start_day start .. end_day end (ISO weekdays). HH:mm local. */
      restrictions?:
        | {
            /** @enum {string} */
            kind: 'daily' | 'weekly';
            start: string;
            end: string;
            /** Format: int32 */
            start_day?: number | null;
            /** Format: int32 */
            end_day?: number | null;
          }[]
        | null;
    };
    ScheduleCreate: {
      name: string;
      description?: string | null;
      /** @description IANA zone, e.g. Europe/Amsterdam. */
      time_zone: string;
      layers?: components['schemas']['ScheduleLayerInput'][];
    };
    ScheduleUpdate: {
      name?: string;
      description?: string | null;
      time_zone?: string;
      /** @description Replaces the layers, lowest first. */
      layers?: components['schemas']['ScheduleLayerInput'][];
    };
    ScheduleShift: {
      user_id: string;
      /** Format: date-time */
      start: string;
      /** Format: date-time */
      end: string;
      layer_id: string | null;
      override_id: string | null;
    };
    Schedule: {
      id: string;
      name: string;
      description: string | null;
      time_zone: string;
      layers: {
        id: string;
        /** Format: int32 */
        position: number;
        name: string | null;
        /** Format: date-time */
        starts_at: string;
        /** @enum {string} */
        rotation: 'daily' | 'weekly' | 'custom';
        /** Format: int32 */
        turn_length_seconds: number | null;
        handoff_time: string;
        /** Format: int32 */
        handoff_weekday: number | null;
        user_ids: string[];
        restrictions: {
          /** @enum {string} */
          kind: 'daily' | 'weekly';
          start: string;
          end: string;
          /** Format: int32 */
          startDay?: number;
          /** Format: int32 */
          endDay?: number;
        }[];
      }[];
      overrides: {
        id: string;
        user_id: string;
        /** Format: date-time */
        starts_at: string;
        /** Format: date-time */
        ends_at: string;
      }[];
      on_call: components['schemas']['ScheduleShift'] | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    SsoProvider: {
      slug: string;
      display_name: string;
    };
    SsoSettings: {
      required: boolean;
      break_glass_user: null | {
        id: string;
        email: string;
      };
      provider: null | components['schemas']['TenantSsoProvider'];
      installation_provider: null | components['schemas']['SsoProvider'];
      /** @description The redirect URI to register at the provider */
      redirect_uri: string;
    };
    TenantSsoProvider: {
      slug: string;
      display_name: string;
      discovery_url: string;
      client_id: string;
      /** @description The secret itself is never shown */
      client_secret_set: boolean;
      groups_claim: string;
      admin_groups: string[];
      member_groups: string[];
      /** Format: date-time */
      updated_at: string;
    };
    UsersResetRequested: {
      detail: string;
    };
    UsersUser: {
      id: string;
      email: string;
      name: string | null;
      /** @enum {string} */
      role: 'admin' | 'member';
      /** @enum {string} */
      kind: 'human' | 'service';
      /**
       * @description Who set the credential; only invited_password, self_password and sso may approve proposals.
       * @enum {string}
       */
      credential_origin: 'invited_password' | 'self_password' | 'sso' | 'admin_set' | 'legacy';
      /** Format: date-time */
      created_at: string;
    };
    UsersPasswordReset: {
      user_id: string;
      link_sent_to: string;
      /** Format: date-time */
      link_expires_at: string;
      /** Format: int32 */
      sessions_ended: number;
      /** Format: int32 */
      tokens_revoked: number;
    };
    /**
     * @description What fires the webhook; the same string is the delivery's `topic` and its `X-Service-Event` header.
     * @enum {string}
     */
    WebhookSettingsTopic:
      | 'alert.opened'
      | 'alert.acknowledged'
      | 'alert.snoozed'
      | 'alert.resolved'
      | 'alert.reopened'
      | 'alert.assigned'
      | 'proposal.opened'
      | 'proposal.approved'
      | 'proposal.denied'
      | 'proposal.applied'
      | 'proposal.failed'
      | 'event.received'
      | 'report.delivered';
    /** @enum {string} */
    WebhookSettingsSeverity: 'info' | 'warning' | 'critical';
    WebhookSettingsPayloadCondition: {
      path: string;
      /** @enum {string} */
      op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'exists' | 'in';
      /** @description As in alert rules. */
      value?: unknown;
    };
    /** @description `alert.*` accept severities, labels, payload_conditions; `proposal.*` accept kinds; `event.received` accepts severities, type_glob, labels, payload_conditions. */
    WebhookSettingsTrigger: {
      on: components['schemas']['WebhookSettingsTopic'];
      severities?: components['schemas']['WebhookSettingsSeverity'][];
      /** @description Proposal kinds. */
      kinds?: string[];
      type_glob?: string;
      labels?: {
        [key: string]: string;
      };
      payload_conditions?: components['schemas']['WebhookSettingsPayloadCondition'][];
    };
    WebhookSettingsOutboundInput: {
      name?: string;
      url?: string;
      enabled?: boolean;
      triggers?: components['schemas']['WebhookSettingsTrigger'][];
    };
    WebhookSettingsOutboundPatch: {
      name?: string;
      url?: string;
      enabled?: boolean;
      triggers?: components['schemas']['WebhookSettingsTrigger'][];
      /** @description The current signing secret, given again to keep it when `url` moves to another origin; `********` does not count. */
      secret?: string;
    };
    WebhookSettingsOutbound: {
      id: string;
      name: string;
      url: string;
      enabled: boolean;
      triggers: components['schemas']['WebhookSettingsTrigger'][];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
      /**
       * Format: date-time
       * @description After a rotation: until then deliveries are also signed with the previous secret.
       */
      previous_secret_valid_until: string | null;
      /** Format: date-time */
      last_failure_at: string | null;
      last_failure_error: string | null;
      /** @description In the answer of PATCH, true when the URL moved to another origin without the current secret, so a new secret signs from now on and the old one no longer does; false elsewhere. */
      secret_cleared?: boolean;
    };
    WebhookSettingsCreatedOutbound: components['schemas']['WebhookSettingsOutbound'] & {
      /** @description `whsec_<base64>` (Standard Webhooks format), shown this once. */
      secret: string;
    };
    /**
     * @description Which secret signs `X-Service-Signature` during the 24 hours after a rotation: `new_at_once` (the
     *     new one; the previous one in `X-Service-Signature-Previous`) or `old_until_confirmed` (the previous
     *     one until the rotation is confirmed; the new one in `X-Service-Signature-Next`).
     * @enum {string}
     */
    WebhookSettingsRotationSigning: 'new_at_once' | 'old_until_confirmed';
    WebhookSettingsSecret: {
      webhook_id: string;
      secret: string;
      /** Format: date-time */
      previous_secret_valid_until: string | null;
      /** @description True while the previous secret still signs `X-Service-Signature` (an `old_until_confirmed` rotation not yet confirmed, within its 24 hours). */
      awaiting_confirmation: boolean;
    };
    WebhookSettingsAttempt: {
      id: string;
      /** Format: int32 */
      number: number;
      request_headers: {
        [key: string]: string;
      };
      /** Format: int32 */
      response_status: number | null;
      response_body: string | null;
      /** Format: int32 */
      duration_ms: number;
      error: string | null;
      /** Format: date-time */
      created_at: string;
    };
    WebhookSettingsDelivery: {
      /** @description Also the `webhook-id` header; stable across retries. */
      id: string;
      webhook_id: string;
      topic: string;
      /** @enum {string} */
      status: 'pending' | 'retrying' | 'delivered' | 'failed';
      /** @description The exact request body sent on every attempt. */
      body: string;
      /** Format: int32 */
      attempt_count: number;
      /** Format: date-time */
      next_attempt_at: string | null;
      last_error: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      delivered_at: string | null;
      /** Format: date-time */
      failed_at: string | null;
      attempts: components['schemas']['WebhookSettingsAttempt'][];
    };
    /** @enum {string} */
    WebhookSettingsInboundKind: 'events' | 'sot';
    /** @description Replay protection: accept only the Standard Webhooks form (webhook-id, webhook-timestamp within 5 minutes, webhook-signature = v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">), each webhook-id once in 24 hours (409 WEBHOOK_REPLAYED). Off (the default): X-Service-Signature over the body. */
    WebhookSettingsRequireStandardWebhooks: boolean;
    /** @description Replay protection for senders that cannot timestamp: the same X-Service-Signature twice within 5 minutes is refused (409 WEBHOOK_REPLAYED). */
    WebhookSettingsRejectRepeatedSignature: boolean;
    WebhookSettingsInbound: {
      id: string;
      name: string;
      slug: string;
      kind: components['schemas']['WebhookSettingsInboundKind'];
      /** @description Where the sender POSTs: `{base_url}/v1/webhooks/<slug>` (kind `events`) or `{base_url}/v1/sot/webhooks/<slug>` (kind `sot`). */
      url: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      previous_secret_valid_until: string | null;
      require_standard_webhooks: components['schemas']['WebhookSettingsRequireStandardWebhooks'];
      reject_repeated_signature: components['schemas']['WebhookSettingsRejectRepeatedSignature'];
    };
    WebhookSettingsInboundWithSecret: components['schemas']['WebhookSettingsInbound'] & {
      /** @description Key of the hex HMAC-SHA256 of the raw body sent in `X-Service-Signature`. */
      secret: string;
    };
    WebhookSettingsIngestKey: {
      id: string;
      key_prefix: string;
      /** Format: date-time */
      created_at: string;
      /**
       * Format: date-time
       * @description Set when rotated away; the key works until then.
       */
      valid_until: string | null;
    };
    WebhookSettingsRotatedIngestKey: components['schemas']['WebhookSettingsIngestKey'] & {
      /** @description The new key (`sik_…`) for `X-Service-Key`, shown this once. */
      key: string;
      /** Format: date-time */
      previous_valid_until: string;
    };
    /** @description The JSON body of an outbound delivery. */
    OutboundWebhookDeliveryBody: {
      /** @description The delivery id; equals the `webhook-id` header and stays the same across retries. */
      id: string;
      /**
       * Format: date-time
       * @description When the change happened (not when this attempt was sent).
       */
      timestamp: string;
      /** @enum {string} */
      topic:
        | 'alert.opened'
        | 'alert.acknowledged'
        | 'alert.snoozed'
        | 'alert.resolved'
        | 'alert.reopened'
        | 'alert.assigned'
        | 'proposal.opened'
        | 'proposal.approved'
        | 'proposal.denied'
        | 'proposal.applied'
        | 'proposal.failed'
        | 'event.received'
        | 'report.delivered'
        | 'alert_group.notified';
      source: string;
      /** @description The topic for alerts and proposals; the event type for `event.received`. */
      kind: string;
      /** @enum {string|null} */
      severity: 'info' | 'warning' | 'critical' | null;
      labels: {
        [key: string]: unknown;
      };
      /** @description The change itself; for `alert_group.notified`, an `AlertGroupNotifiedPayload`. */
      payload: {
        [key: string]: unknown;
      };
    };
    /**
     * @description The `payload` of an `alert_group.notified` delivery: one notification of an alert group a route formed,
     *     sent to the webhooks of the route's receiver. `labels` of the body are the group's `group_by` values;
     *     `severity` is the highest of its live alerts.
     */
    AlertGroupNotifiedPayload: {
      /**
       * @description `first`: group_wait after the group opened. `update`: alerts joined since the last notification
       *     (group_interval after it). `repeat`: the group still fires repeat_interval after the last one.
       * @enum {string}
       */
      notification: 'first' | 'update' | 'repeat';
      /**
       * Format: int32
       * @description The group's notifications so far, this one included (1 for `first`).
       */
      sequence: number;
      group: {
        id: string;
        /** @description The route and its group_by values. */
        group_key: string;
        /** @enum {string} */
        status: 'firing' | 'acknowledged' | 'snoozed' | 'resolved';
        route_id: string | null;
        receiver: string | null;
        group_labels: {
          [key: string]: string;
        };
        /** Format: date-time */
        created_at: string;
        /** Format: date-time */
        notified_at: string;
      };
      /**
       * Format: int32
       * @description The group's live alerts.
       */
      alert_count: number;
      /**
       * Format: int32
       * @description Live alerts left out of `alerts` (it lists at most 100, oldest first).
       */
      truncated_alerts: number;
      /** @description The alerts this notification announces first (every alert for `first`; none for `repeat`). */
      new_alert_ids: string[];
      /** @description The group's live alerts, oldest first, in the REST alert shape. */
      alerts: components['schemas']['AlertsAlert'][];
    };
  };
  responses: {
    /** @description Missing, invalid, expired or revoked credential */
    Unauthorized: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Authenticated but not permitted */
    Forbidden: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Not found (or belongs to another tenant) */
    NotFound: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The object's state does not allow this */
    Conflict: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The request failed validation; `detail` lists the offending fields */
    ValidationFailed: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['ValidationError'];
      };
    };
    /** @description Body over 1 MiB */
    PayloadTooLarge: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Rate-limited; retry after the `Retry-After` seconds */
    RateLimited: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        'Retry-After'?: number;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The language model server failed or answered nonsense; the conversation is kept */
    AssistantUpstreamFailed: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The language model server did not answer in time (ASSISTANT_TIMEOUT_MS); the conversation is kept */
    AssistantUpstreamTimeout: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The group after the action */
    AlertGroupAfterAction: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['AlertGroup'];
      };
    };
    /** @description The body is not application/json */
    EventsUnsupportedMediaType: {
      headers: {
        'RateLimit-Limit': components['headers']['RateLimit-Limit'];
        'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
        'RateLimit-Reset': components['headers']['RateLimit-Reset'];
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description An unexpected failure on the server; the body names no internals. Retry later. */
    InternalError: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
  };
  parameters: {
    TokenId: string;
    AlertsAlertId: string;
    AssistantAlertId: string;
    AssistantActionId: string;
    /** @description A calendar month in the billing time zone, YYYY-MM (instead of from/to) */
    BillingPeriodParam: string;
    /** @description Start, an ISO date (midnight in the billing time zone) or a date-time with offset */
    BillingFromParam: string;
    /** @description End (exclusive), as `from`; default the end of the month (with `from`, now) */
    BillingToParam: string;
    ClusterId: string;
    DevicesDeviceId: string;
    AlertGroupId: string;
    /** @description Only events of this module. */
    EventsModule: string;
    /** @description Only events of this severity. */
    EventsSeverity: 'info' | 'warning' | 'critical';
    AiperfRunId: string;
    IntegrationId: string;
    /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
    IntegrationsProvider: string;
    ProposalsProposalId: string;
    ReportsReportId: string;
    ReportsDashboardId: string;
    ReportsScheduleId: string;
    RulesRuleId: string;
    WebhookSettingsWebhookId: string;
  };
  requestBodies: never;
  headers: {
    /** @description Requests allowed per minute with this credential (`API_RATE_PER_MINUTE`). */
    'RateLimit-Limit': number;
    /** @description Requests left in the current minute. */
    'RateLimit-Remaining': number;
    /** @description Seconds until the budget refills. */
    'RateLimit-Reset': number;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description Logged in */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LoginResponse'];
        };
      };
      401: components['responses']['Unauthorized'];
      /**
       * @description The password was right but the user's tenant requires single sign-on (`SSO_REQUIRED`): sign in
       *     through `/auth/sso/providers/{slug}/start`. Only the tenant's break-glass admin may use a password.
       */
      403: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  logout: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Logged out; the session JWT no longer works */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getMe: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The caller */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Me'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listTokens: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Tokens, newest first */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccessToken'][];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          description?: string;
          /**
           * Format: int32
           * @description 30, 90, 365 or a custom number of days; null or omitted means never.
           */
          expires_in_days?: number | null;
          /** @description Admins only; a service user of the tenant. */
          user_id?: string;
        };
      };
    };
    responses: {
      /** @description Minted */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MintedToken'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  revokeToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tokenId: components['parameters']['TokenId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  reactivateToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tokenId: components['parameters']['TokenId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Active again */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AccessToken'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  rotateToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        tokenId: components['parameters']['TokenId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new token (cleartext shown once) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['MintedToken'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerGetAlerts: {
    parameters: {
      query?: {
        active?: boolean;
        silenced?: boolean;
        inhibited?: boolean;
        unprocessed?: boolean;
        filter?: string[];
        receiver?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alerts */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertmanagerGettableAlert'][];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerPostAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertmanagerPostableAlert'][];
      };
    };
    responses: {
      /** @description Recorded (Alertmanager answers with no body; this service answers an empty object) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerGetSilences: {
    parameters: {
      query?: {
        filter?: string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Silences */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertmanagerGettableSilence'][];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerPostSilences: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertmanagerPostableSilence'];
      };
    };
    responses: {
      /** @description The silence's id */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            silenceID: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerGetSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The silence */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertmanagerGettableSilence'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerDeleteSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Expired (an empty object) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  alertmanagerGetStatus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Status */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            cluster: {
              /** @enum {string} */
              status: 'ready' | 'settling' | 'disabled';
              peers?: {
                [key: string]: unknown;
              }[];
            };
            versionInfo: {
              branch: string;
              buildDate: string;
              buildUser: string;
              goVersion: string;
              revision: string;
              version: string;
            };
            config: {
              original: string;
            };
            /** Format: date-time */
            uptime: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listAlerts: {
    parameters: {
      query?: {
        severity?: components['schemas']['AlertsSeverity'];
        /** @description One status, or `any` (the default: every status). */
        status?: 'open' | 'acknowledged' | 'snoozed' | 'resolved' | 'any';
        /** @description Only alerts first seen in the last N hours (default any time). */
        since_hours?: number;
        /** @description Most alerts returned. */
        limit?: number;
        /** @description Only alerts from this event source. */
        source?: string;
        /** @description Only alerts raised by this rule (its id). */
        rule?: string;
        /** @description Only the alert with this dedup key: the alert's own `dedup_key`, or the key an integration's sender used (PagerDuty's `dedup_key` as the 202 of `/v2/enqueue` returns it, Alertmanager's fingerprint). */
        dedup_key?: string;
        /** @description The order: a column, `-` before it for descending, e.g. `sort=-last_seen_at` (latest first) or `sort=severity`. Ties go by id in the same direction. Default: newest first (by id). */
        sort?:
          | 'last_seen_at'
          | '-last_seen_at'
          | 'first_seen_at'
          | '-first_seen_at'
          | 'severity'
          | '-severity'
          | 'status'
          | '-status'
          | 'count'
          | '-count'
          | 'summary'
          | '-summary';
        /** @description Only alerts with this label, as `key:value` (exact match); repeat for several (all must match), e.g. `label=service:checkout&label=env:prod`. */
        label?: string[];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Alerts, newest first */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['AlertsAlert'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The alert */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsAlertDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  acknowledgeAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Acknowledged */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsAlertDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  snoozeAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          duration?: string | number;
          /** Format: date-time */
          until?: string;
        };
      };
    };
    responses: {
      /** @description Snoozed */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsAlertDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  resolveAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Resolved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsAlertDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  assignAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          user_id?: string | null;
        };
      };
    };
    responses: {
      /** @description The alert with its new assignee */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsAlertDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  addAlertNote: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          text: string;
        };
      };
    };
    responses: {
      /** @description The timeline entry of the note */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsTimelineEntry'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  acknowledgeAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertsBulkRequest'];
      };
    };
    responses: {
      /** @description One result per distinct id, in the order sent */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsBulkResults'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  resolveAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AlertsBulkRequest'];
      };
    };
    responses: {
      /** @description One result per distinct id, in the order sent */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertsBulkResults'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getTriageSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settings */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TriageSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  setTriageSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          change_types: string[];
        };
      };
    };
    responses: {
      /** @description The settings after the change */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TriageSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getAlertChat: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The conversation; `conversation_id` is null and `messages` empty until someone writes */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            alert_id: string;
            conversation_id: string | null;
            messages: components['schemas']['AssistantMessage'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  postAlertChat: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AssistantChatRequest'];
      };
    };
    responses: {
      /** @description The reply */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AssistantChatReply'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
      502: components['responses']['AssistantUpstreamFailed'];
      504: components['responses']['AssistantUpstreamTimeout'];
    };
  };
  triageAlert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The triage */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AssistantTriage'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
      502: components['responses']['AssistantUpstreamFailed'];
      504: components['responses']['AssistantUpstreamTimeout'];
    };
  };
  approveAssistantAction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
        actionId: components['parameters']['AssistantActionId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          /** @description The args_hash of the action you reviewed. */
          args_hash?: string;
        };
      };
    };
    responses: {
      /** @description The action, executed (or failed with the reason in result) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AssistantAction'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  rejectAssistantAction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AssistantAlertId'];
        actionId: components['parameters']['AssistantActionId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          reason?: string;
        };
      };
    };
    responses: {
      /** @description The rejected action */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AssistantAction'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  copilotChat: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          message: string;
          conversation_id?: string;
        };
      };
    };
    responses: {
      /** @description The reply */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AssistantChatReply'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
      502: components['responses']['AssistantUpstreamFailed'];
      504: components['responses']['AssistantUpstreamTimeout'];
    };
  };
  copilotHistory: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Conversations */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['AssistantConversation'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  billingCurrent: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Spend this month */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BillingCurrent'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  billingBreakdown: {
    parameters: {
      query?: {
        group_by?: components['schemas']['BillingGroupBy'];
        /** @description A calendar month in the billing time zone, YYYY-MM (instead of from/to) */
        period?: components['parameters']['BillingPeriodParam'];
        /** @description Start, an ISO date (midnight in the billing time zone) or a date-time with offset */
        from?: components['parameters']['BillingFromParam'];
        /** @description End (exclusive), as `from`; default the end of the month (with `from`, now) */
        to?: components['parameters']['BillingToParam'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The breakdown */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BillingBreakdown'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  billingDaily: {
    parameters: {
      query?: {
        days?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One entry per day, oldest first */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BillingDaily'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  billingLocalGpu: {
    parameters: {
      query?: {
        /** @description A calendar month in the billing time zone, YYYY-MM (instead of from/to) */
        period?: components['parameters']['BillingPeriodParam'];
        /** @description Start, an ISO date (midnight in the billing time zone) or a date-time with offset */
        from?: components['parameters']['BillingFromParam'];
        /** @description End (exclusive), as `from`; default the end of the month (with `from`, now) */
        to?: components['parameters']['BillingToParam'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The comparison */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BillingLocalGpu'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  billingSkus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Every SKU (defaults, custom meters' SKUs, cloud reference SKUs) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['BillingSku'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  billingExport: {
    parameters: {
      query?: {
        format?: 'csv' | 'json';
        /** @description A calendar month in the billing time zone, YYYY-MM (instead of from/to) */
        period?: components['parameters']['BillingPeriodParam'];
        /** @description Start, an ISO date (midnight in the billing time zone) or a date-time with offset */
        from?: components['parameters']['BillingFromParam'];
        /** @description End (exclusive), as `from`; default the end of the month (with `from`, now) */
        to?: components['parameters']['BillingToParam'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The export file */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
          'application/json': {
            [key: string]: unknown;
          }[];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listClusters: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Clusters, oldest first */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Cluster'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createClusterInvite: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          /**
           * Format: int32
           * @default 24
           */
          expires_in_hours?: number;
          /** @description The URL members reach this hub at, shown in `command` (default PUBLIC_BASE_URL). */
          hub_url?: string;
        };
      };
    };
    responses: {
      /** @description Minted */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            token: string;
            /** Format: date-time */
            expires_at: string;
            command: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  joinCluster: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          invite: string;
          name: string;
          /** @description The member's public base URL, if any. */
          url?: string | null;
          version?: string | null;
        };
      };
    };
    responses: {
      /** @description Joined */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            cluster_id: string;
            name: string;
            credential: string;
            /** Format: int32 */
            heartbeat_interval_seconds: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  clusterHeartbeat: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          version?: string | null;
          open_alerts?: {
            /** Format: int32 */
            info?: number;
            /** Format: int32 */
            warning?: number;
            /** Format: int32 */
            critical?: number;
          };
          /** Format: int32 */
          device_count?: number;
        };
      };
    };
    responses: {
      /** @description Recorded */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            cluster_id: string;
            /** @enum {string} */
            status: 'connected' | 'stale' | 'revoked';
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  clusterForwardAlerts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          alerts: {
            id: string;
            summary: string;
            /** @enum {string} */
            severity: 'info' | 'warning' | 'critical';
            status?: string;
            /** Format: date-time */
            first_seen_at?: string;
          }[];
        };
      };
    };
    responses: {
      /** @description Recorded on the hub's timeline */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: int32 */
            events: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getCluster: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        clusterId: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The cluster */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Cluster'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  revokeCluster: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        clusterId: components['parameters']['ClusterId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked (idempotent) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Cluster'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listDevices: {
    parameters: {
      query?: {
        site?: string;
        role?: string;
        platform?: string;
        /** @description Case-insensitive text in the name or management address. */
        search?: string;
        /** @description Most devices returned. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Devices */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['DevicesDevice'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createDevice: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DevicesDeviceInput'] & unknown;
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesDevice'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getDevice: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The device, with its current intent version and latest drift status */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesDeviceDetail'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteDevice: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateDevice: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['DevicesDeviceInput'] & unknown;
      };
    };
    responses: {
      /** @description The changed device */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesDevice'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getDeviceConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The observed configuration */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesObservedConfig'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  reportObservedConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          config: string;
          /**
           * Format: date-time
           * @description When it was read; not in the future.
           */
          observed_at?: string | null;
        };
      };
    };
    responses: {
      /** @description Stored */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesObservedConfig'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getDeviceIntent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The current intent */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesIntent'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  setDeviceIntent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          config: string;
          /** @description Why the intent changes; kept with the version. */
          comment?: string | null;
        };
      };
    };
    responses: {
      /** @description The new current intent */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesIntent'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getReviewSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The review settings */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesReviewSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  setReviewSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          require_proposals: boolean;
        };
      };
    };
    responses: {
      /** @description The new review settings */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesReviewSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  reconcileDevice: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deviceId: components['parameters']['DevicesDeviceId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Queued */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            device_id: string;
            job_id: string;
            /** Format: date-time */
            queued_at: string;
            /** @enum {string} */
            status: 'queued';
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  sotWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "event": "created",
         *       "model": "dcim.device",
         *       "timestamp": "2026-11-21T05:00:00Z",
         *       "username": "netbox-admin",
         *       "request_id": "5f0c1f7e-0000-4000-8000-000000000000",
         *       "data": {
         *         "id": 42,
         *         "name": "edge-1",
         *         "role": {
         *           "name": "Edge"
         *         },
         *         "site": {
         *           "slug": "ams1"
         *         },
         *         "platform": {
         *           "name": "EOS"
         *         },
         *         "primary_ip": {
         *           "address": "10.0.0.1/24"
         *         },
         *         "tags": [
         *           {
         *             "name": "core"
         *           }
         *         ],
         *         "custom_fields": {
         *           "rack": "A3"
         *         }
         *       },
         *       "snapshots": {
         *         "prechange": null,
         *         "postchange": {}
         *       }
         *     }
         */
        'application/json': {
          /** @enum {string} */
          event: 'created' | 'updated' | 'deleted';
          model: string;
          timestamp?: string;
          username?: string | null;
          request_id?: string | null;
          data: {
            [key: string]: unknown;
          };
          snapshots?: {
            [key: string]: unknown;
          } | null;
        };
      };
    };
    responses: {
      /** @description Applied to an existing device, deleted, or ignored */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesWebhookResult'];
        };
      };
      /** @description A device was created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DevicesWebhookResult'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listEscalationPolicies: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The policies */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['EscalationPolicy'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createEscalationPolicy: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EscalationPolicyCreate'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EscalationPolicy'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getEscalationPolicy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        policyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The policy */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EscalationPolicy'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteEscalationPolicy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        policyId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateEscalationPolicy: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        policyId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EscalationPolicyUpdate'];
      };
    };
    responses: {
      /** @description The policy after the change */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EscalationPolicy'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getPagingSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The settings */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PagingSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updatePagingSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          default_escalation_policy_id?: string | null;
        };
      };
    };
    responses: {
      /** @description The settings after the change */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PagingSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listAlertGroups: {
    parameters: {
      query?: {
        /** @description Only groups in these states (comma-separated). */
        status?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The groups */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['AlertGroup'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getAlertGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The group */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AlertGroup'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listAlertGroupNotifications: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The first `limit` notifications */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['NotificationsNotification'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  acknowledgeAlertGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['AlertGroupAfterAction'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  resolveAlertGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['AlertGroupAfterAction'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  escalateAlertGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: components['responses']['AlertGroupAfterAction'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  snoozeAlertGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          duration?: string | number;
          /** Format: date-time */
          until?: string;
        };
      };
    };
    responses: {
      200: components['responses']['AlertGroupAfterAction'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  reassignAlertGroup: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        groupId: components['parameters']['AlertGroupId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          user_id: string;
        };
      };
    };
    responses: {
      200: components['responses']['AlertGroupAfterAction'];
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /** @description Only events of this module. */
        module?: components['parameters']['EventsModule'];
        /** @description Only events of this severity. */
        severity?: components['parameters']['EventsSeverity'];
        /** @description Only events received in the last N hours. */
        since_hours?: number;
        /** @description Most events returned. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Events, newest first */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventsEvent'][];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  ingestEvent: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EventsEnvelope'] | components['schemas']['EventsEnvelopeBatch'];
      };
    };
    responses: {
      /** @description Stored (committed); rule evaluation follows asynchronously. A batch gets one result per item. */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          /** @description Batches only, when items were rejected by the rate limit; seconds until it refills. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventsAccepted'] | components['schemas']['EventsBatchAccepted'];
        };
      };
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['EventsUnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  streamEvents: {
    parameters: {
      query?: {
        /** @description Only events of this module. */
        module?: components['parameters']['EventsModule'];
        /** @description Only events of this severity. */
        severity?: components['parameters']['EventsSeverity'];
        /** @description Resume after this event id (for clients that cannot set `Last-Event-ID`). */
        last_event_id?: string;
      };
      header?: {
        /** @description Resume after this event id. */
        'Last-Event-ID'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The stream (stays open) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  receiveInboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The inbound webhook's slug (from GraphQL `createInboundWebhook`). */
        slug: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['EventsWebhookEnvelope'];
      };
    };
    responses: {
      /** @description Stored (committed); the recorded event */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EventsWebhookAccepted'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['EventsUnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listGpuDiagnostics: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Diagnostics requests */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['GpuDiagnostic'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  startGpuDiagnostic: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "node": "gpu-node-1",
         *       "level": 2
         *     }
         */
        'application/json': {
          /** @description A GPU id or UUID (`GPU-…`). Give this or `node`. */
          gpu?: string;
          /** @description Every GPU of this node. Give this or `gpu`. */
          node?: string;
          /**
           * Format: int32
           * @description As `dcgmi diag -r`.
           * @enum {integer}
           */
          level: 1 | 2 | 3;
        };
      };
    };
    responses: {
      /** @description Accepted (`status` queued) */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GpuDiagnostic'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getGpuDiagnostic: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        diagnosticId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The diagnostics request */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['GpuDiagnostic'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listAiperfRuns: {
    parameters: {
      query?: {
        status?: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Runs */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['AiperfRun'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  startAiperfRun: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "endpoint_url": "http://127.0.0.1:8000",
         *       "model": "llama-3.1-8b-instruct",
         *       "mode": "concurrency",
         *       "concurrency": 4,
         *       "request_count": 100,
         *       "input_tokens": 128,
         *       "output_tokens": 64,
         *       "streaming": true
         *     }
         */
        'application/json': {
          /** @description Base URL of the server, e.g. `http://vllm.internal:8000`; `/v1/chat/completions` is appended. */
          endpoint_url: string;
          model: string;
          /** @enum {string} */
          mode: 'concurrency' | 'request_rate';
          /**
           * Format: int32
           * @description Clients in `concurrency` mode (default 1); the in-flight cap in `request_rate` mode.
           */
          concurrency?: number | null;
          /** @description Requests per second (`request_rate` mode). */
          request_rate?: number | null;
          /** Format: int32 */
          request_count?: number | null;
          /** Format: int32 */
          duration_s?: number | null;
          /**
           * Format: int32
           * @description Prompt length in tokens.
           * @default 128
           */
          input_tokens?: number;
          /**
           * Format: int32
           * @description `max_tokens` of each request.
           * @default 64
           */
          output_tokens?: number;
          /** @default true */
          streaming?: boolean;
        };
      };
    };
    responses: {
      /** @description Accepted (`status` queued) */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AiperfRun'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getAiperfRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: components['parameters']['AiperfRunId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AiperfRun'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  cancelAiperfRun: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        runId: components['parameters']['AiperfRunId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run (cancelled, or still running with `cancel_requested_at` set until its job stops) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AiperfRun'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  pushGpuSamples: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "node": "gpu-node-1",
         *       "samples": [
         *         {
         *           "uuid": "GPU-6e0b7a3c-2b1d-4f5e-9a8b-1c2d3e4f5a6b",
         *           "index": 0,
         *           "model": "NVIDIA A100-SXM4-80GB",
         *           "utilization": 87,
         *           "memory_used_mib": 40960,
         *           "memory_total_mib": 81920,
         *           "temperature_c": 66,
         *           "power_w": 312.5,
         *           "power_limit_w": 400,
         *           "sm_clock_mhz": 1410,
         *           "ecc_dbe": 0
         *         }
         *       ]
         *     }
         */
        'application/json': {
          /** @description The host; a sample may name its own. */
          node?: string;
          samples: components['schemas']['GpuSampleIn'][];
        };
      };
    };
    responses: {
      /** @description Recorded */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'accepted';
            /** Format: int32 */
            gpus: number;
            /**
             * Format: int32
             * @description New samples stored (repeats are skipped).
             */
            samples: number;
            /**
             * Format: int32
             * @description Hardware events written to the timeline.
             */
            events: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  aiFactoryOverview: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The overview */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            fleet: components['schemas']['GpuFleet'];
            /** Format: int32 */
            idle_gpus: number;
            energy_today_kwh: number;
            /** Format: int32 */
            open_gpu_alerts: number;
            recent_events: components['schemas']['GpuEvent'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  gpuSummary: {
    parameters: {
      query?: {
        /** @description Only this node's GPUs. */
        node?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The fleet */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            fleet: components['schemas']['GpuFleet'];
            gpus: components['schemas']['Gpu'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  gpuTimeseries: {
    parameters: {
      query: {
        metric:
          | 'utilization'
          | 'memory_used_mib'
          | 'memory_total_mib'
          | 'temperature_c'
          | 'power_w'
          | 'power_limit_w'
          | 'energy_j'
          | 'xid'
          | 'ecc_dbe'
          | 'sm_clock_mhz';
        /** @description A GPU id or UUID (`GPU-…`). */
        gpu?: string;
        node?: string;
        since_hours?: number;
        /** @description Seconds between points (raised to keep at most ~1,000). */
        step?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The series */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            metric: string;
            unit: string | null;
            /** Format: int32 */
            step_seconds: number;
            /** @enum {string} */
            resolution: 'raw' | '1m' | '1h';
            series: {
              gpu: components['schemas']['GpuRef'];
              points: [string, number | null][];
            }[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  gpuEvents: {
    parameters: {
      query?: {
        since_hours?: number;
        /** @description e.g. `gpu.xid` */
        type?: string;
        node?: string;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The events */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['GpuEvent'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listInhibitRules: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Inhibition rules */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RoutingInhibitRule'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createInhibitRule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingInhibitRuleCreate'];
      };
    };
    responses: {
      /** @description The rule */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingInhibitRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getInhibitRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inhibitRuleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingInhibitRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteInhibitRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inhibitRuleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateInhibitRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inhibitRuleId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingInhibitRuleUpdate'];
      };
    };
    responses: {
      /** @description The rule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingInhibitRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getAlertPaging: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: components['parameters']['AlertsAlertId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The explanation */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingPagingExplanation'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listIntegrations: {
    parameters: {
      query?: {
        /** @description Only integrations of this provider. */
        provider?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Integrations */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Integration'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createIntegration: {
    parameters: {
      query?: {
        /** @description Test the config (validation and a reachability probe) without saving. */
        dry_run?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          provider: string;
          name: string;
          /** @description Valid against the provider's config schema. */
          config?: {
            [key: string]: unknown;
          };
          /** @default true */
          enabled?: boolean;
          /** Format: int32 */
          freshness_seconds?: number | null;
          /** @description The escalation policy that pages this integration's alerts (a rule's own wins); 422 when not a policy of the tenant. */
          escalation_policy_id?: string | null;
        };
      };
    };
    responses: {
      /** @description Dry run; nothing saved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationDryRun'];
        };
      };
      /** @description Created; `push_token` is shown this once (null for pull-only providers) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Integration'] & {
            push_token: string | null;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getProviderConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The config */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationProviderConfig'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  putProviderConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          config: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Saved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationProviderConfig'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteProviderConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getIntegrationConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The config */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationProviderConfig'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  putIntegrationConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          config: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Saved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationProviderConfig'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteIntegrationConfig: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The integration */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Integration'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          enabled?: boolean;
          /** @description Replaces the own config; `********` keeps a stored secret. */
          config?: {
            [key: string]: unknown;
          };
          /**
           * Format: int32
           * @description null turns the freshness check off.
           */
          freshness_seconds?: number | null;
          /** @description null: the tenant default pages its alerts; omit to keep. */
          escalation_policy_id?: string | null;
        };
      };
    };
    responses: {
      /** @description Updated */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Integration'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  rotateIntegrationPushToken: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rotated; `push_token` is shown this once */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Integration'] & {
            push_token: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getIntegrationHealth: {
    parameters: {
      query?: {
        /** @description Check now instead of returning the latest stored check. */
        refresh?: boolean;
        /** @description How many recent checks to include (newest first). */
        history?: number;
      };
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The health */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationHealthResponse'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  ingestIntegrations: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A provider id (alertmanager, dcgm, pagerduty, prometheus, webhook). */
        provider: components['parameters']['IntegrationsProvider'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description What was recorded */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['IntegrationIngestResult'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  pushToIntegration: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        integrationId: components['parameters']['IntegrationId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Recorded */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: int32 */
            events: number;
            /** Format: int32 */
            alerts_opened: number;
            /** Format: int32 */
            alerts_resolved: number;
          };
        };
      };
      /** @description A `pagerduty` integration took the event (PagerDuty's answer) */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'success';
            message: string;
            /** @description The alert the event acted on; generated for a trigger without one. */
            dedup_key: string;
          };
        };
      };
      /** @description A `pagerduty` integration cannot take the body (PagerDuty's answer) */
      400: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            status: 'invalid event';
            message: string;
            errors: string[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      413: components['responses']['PayloadTooLarge'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getVersion: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The release */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ServerVersion'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listContactMethods: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Contact methods */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['NotificationsContactMethod'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createContactMethod: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          kind: components['schemas']['NotificationsKind'];
          name: string;
          address?: string;
          topic?: string;
          token?: string;
          enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description The contact method (with `secret` for a webhook) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationsContactMethod'] & {
            secret?: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteContactMethod: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        contactMethodId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateContactMethod: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        contactMethodId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          address?: string;
          topic?: string;
          token?: string;
          enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description The contact method */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationsContactMethod'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  testContactMethod: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        contactMethodId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The test notification */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationsNotification'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listNotificationRules: {
    parameters: {
      query?: {
        urgency?: components['schemas']['NotificationsUrgency'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rules */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['NotificationsRule'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createNotificationRule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          urgency: components['schemas']['NotificationsUrgency'];
          contact_method_id: string;
          /** Format: int32 */
          delay_minutes?: number;
        };
      };
    };
    responses: {
      /** @description The rule */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationsRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteNotificationRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateNotificationRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          urgency?: components['schemas']['NotificationsUrgency'];
          contact_method_id?: string;
          /** Format: int32 */
          delay_minutes?: number;
        };
      };
    };
    responses: {
      /** @description The rule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['NotificationsRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getInbox: {
    parameters: {
      query?: {
        unread_only?: boolean;
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The inbox */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: int32 */
            unread_count: number;
            items: components['schemas']['NotificationsNotification'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  markInboxRead: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          ids?: string[];
        };
      };
    };
    responses: {
      /** @description How many changed */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: int32 */
            marked: number;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listAlertNotifications: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        alertId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Notifications, oldest first */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['NotificationsNotification'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  openProposal: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "title": "Raise MTU on core-1",
         *       "kind": "config_change",
         *       "device_id": "0190f5d2-8c1e-7a3b-9c4d-5e6f7a8b9c0d",
         *       "proposed_intent": "mtu 9000\n",
         *       "reason": "jumbo frames"
         *     }
         */
        'application/json': {
          title: string;
          /** @description Freeform identifier such as `config_change`; outbound triggers select on it. */
          kind: string;
          /** @description The target device. */
          device_id: string;
          /** @description The new intended configuration. Give this or `action`. */
          proposed_intent?: string | null;
          /** @description An action instead of an intent change, e.g. `reconcile`. */
          action?: string | null;
          reason?: string | null;
        };
      };
    };
    responses: {
      /** @description Opened (status `proposed`, revision 1) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProposalsProposal'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listProposals: {
    parameters: {
      query?: {
        status?: 'proposed' | 'approved' | 'denied' | 'applied' | 'failed';
        /** @description A duration: digits and a unit (s, m, h, d, w), e.g. `30m`, `24h`, `7d`, `1h30m`. */
        older_than?: string;
        kind?: string;
        device_id?: string;
        /** @description Most proposals returned. */
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Proposals */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ProposalsProposal'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getProposal: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The proposal */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProposalsProposal'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateProposal: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          title?: string;
          kind?: string;
          device_id?: string;
          proposed_intent?: string;
          action?: string;
          reason?: string | null;
        };
      };
    };
    responses: {
      /** @description The changed proposal */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProposalsProposal'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  approveProposal: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          /**
           * Format: int32
           * @description Approve only if this is still the current revision (the one you reviewed).
           */
          revision?: number;
        };
      };
    };
    responses: {
      /** @description Approved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProposalsProposal'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  denyProposal: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        proposalId: components['parameters']['ProposalsProposalId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Denied */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProposalsProposal'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  runReportQuery: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReportsQueryBody'];
      };
    };
    responses: {
      /** @description The result (at most `limit` rows; `truncated` says whether more matched) */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsResult'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  exportReportQuery: {
    parameters: {
      query?: {
        format?: 'csv' | 'json';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReportsExportBody'];
      };
    };
    responses: {
      /** @description The export file */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
          'application/json': {
            [key: string]: unknown;
          }[];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getReportQuerySchema: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description `schema` (JSON Schema 2020-12 of the query body), `catalogue` and `limits` */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            schema: {
              [key: string]: unknown;
            };
            catalogue: {
              /** @enum {string} */
              entity: 'events' | 'alerts' | 'devices' | 'proposals';
              time_field: string;
              window_optional?: boolean;
              labels?: boolean;
              payload?: boolean;
              default_columns?: string[];
              fields: {
                name: string;
                /** @enum {string} */
                type: 'string' | 'text' | 'enum' | 'integer' | 'timestamp' | 'boolean' | 'label' | 'json';
                ops: string[];
                description: string;
                values?: string[];
              }[];
            }[];
            limits: {
              [key: string]: unknown;
            };
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  translateReportQuery: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          text: string;
        };
      };
    };
    responses: {
      /** @description The translation */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            query: {
              [key: string]: unknown;
            } | null;
            explanation: string;
            valid: boolean;
            errors: components['schemas']['ReportsFieldProblem'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listSavedReports: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Saved reports */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ReportsSavedReport'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createSavedReport: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          description?: string | null;
          query: components['schemas']['ReportsQueryBody'];
        };
      };
    };
    responses: {
      /** @description Saved (the query is stored validated, with defaults filled in) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsSavedReport'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getSavedReport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        reportId: components['parameters']['ReportsReportId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The saved report */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsSavedReport'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteSavedReport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        reportId: components['parameters']['ReportsReportId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateSavedReport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        reportId: components['parameters']['ReportsReportId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          description?: string | null;
          query?: components['schemas']['ReportsQueryBody'];
        };
      };
    };
    responses: {
      /** @description The changed report */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsSavedReport'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  runSavedReport: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        reportId: components['parameters']['ReportsReportId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        'application/json': {
          parameters?: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description The result */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsResult'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listDashboards: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Dashboards */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ReportsDashboard'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createDashboard: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          panels?: components['schemas']['ReportsPanelInput'][];
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsDashboard'];
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getDashboard: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dashboardId: components['parameters']['ReportsDashboardId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The dashboard */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsDashboard'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteDashboard: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dashboardId: components['parameters']['ReportsDashboardId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateDashboard: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dashboardId: components['parameters']['ReportsDashboardId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          panels?: components['schemas']['ReportsPanelInput'][];
        };
      };
    };
    responses: {
      /** @description The changed dashboard */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsDashboard'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getDashboardData: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        dashboardId: components['parameters']['ReportsDashboardId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The panels with their data */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            dashboard_id: string;
            name: string;
            panels: (components['schemas']['ReportsPanel'] & {
              data: components['schemas']['ReportsResult'] | null;
              error: string | null;
            })[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listReportSchedules: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Schedules */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ReportsSchedule'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createReportSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': WithRequired<
          components['schemas']['ReportsScheduleFields'],
          'saved_report_id' | 'webhook_id' | 'cron'
        >;
      };
    };
    responses: {
      /** @description Created (its job scheduler is registered) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsSchedule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getReportSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: components['parameters']['ReportsScheduleId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The schedule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsSchedule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteReportSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: components['parameters']['ReportsScheduleId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateReportSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: components['parameters']['ReportsScheduleId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ReportsScheduleFields'];
      };
    };
    responses: {
      /** @description The changed schedule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ReportsSchedule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  runReportSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: components['parameters']['ReportsScheduleId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The run */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            schedule_id: string;
            /** @enum {string} */
            status: 'delivered' | 'disabled' | 'skipped';
            outbox_id: string | null;
            /** Format: int32 */
            row_count: number | null;
            reason: string | null;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getRoutingTree: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The tree */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingTree'];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  replaceRoutingTree: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          routes: components['schemas']['RoutingRouteInput'][];
        };
      };
    };
    responses: {
      /** @description The tree as stored */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingTree'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  testRoute: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @example {
           *       "alertname": "DiskFull",
           *       "team": "db",
           *       "severity": "critical"
           *     }
           */
          labels: {
            [key: string]: string;
          };
        };
      };
    };
    responses: {
      /** @description The routes taken */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            routes: components['schemas']['RoutingRouteMatch'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  importAlertmanagerConfig: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          config: string;
        };
      };
    };
    responses: {
      /** @description What was imported and what was not */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: int32 */
            routes: number;
            receivers: string[];
            /** Format: int32 */
            inhibit_rules: number;
            time_intervals: string[];
            unmapped: string[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listRoutingReceivers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Receivers */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RoutingReceiver'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createRoutingReceiver: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': WithRequired<components['schemas']['RoutingReceiverUpdate'], 'name'>;
      };
    };
    responses: {
      /** @description The receiver */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingReceiver'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteRoutingReceiver: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        receiverId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateRoutingReceiver: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        receiverId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingReceiverUpdate'];
      };
    };
    responses: {
      /** @description The receiver */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingReceiver'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listSilences: {
    parameters: {
      query?: {
        state?: components['schemas']['RoutingSilenceState'];
        limit?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Silences */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RoutingSilence'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createSilence: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingSilenceCreate'];
      };
    };
    responses: {
      /** @description The silence */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingSilence'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The silence */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingSilence'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingSilenceUpdate'];
      };
    };
    responses: {
      /** @description The silence */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingSilence'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  expireSilence: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        silenceId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The expired silence */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingSilence'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listTimeIntervals: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Time intervals */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RoutingTimeInterval'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createTimeInterval: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingTimeIntervalCreate'];
      };
    };
    responses: {
      /** @description The time interval */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingTimeInterval'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getTimeInterval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        timeIntervalId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The time interval */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingTimeInterval'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteTimeInterval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        timeIntervalId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateTimeInterval: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        timeIntervalId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['RoutingTimeIntervalUpdate'];
      };
    };
    responses: {
      /** @description The time interval */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RoutingTimeInterval'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listSuggestedAlertRules: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Suggestions */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RulesSuggestion'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  enableSuggestedAlertRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        key: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RulesAlertRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listAlertRules: {
    parameters: {
      query?: {
        kind?: components['schemas']['RulesKind'];
        enabled?: boolean;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rules */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['RulesAlertRule'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createAlertRule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "Deploy failures",
         *       "kind": "match",
         *       "type_glob": "deploy.*",
         *       "severities": [
         *         "critical"
         *       ],
         *       "alert_severity": "critical",
         *       "summary_template": "{{type}} on {{source}}"
         *     }
         */
        'application/json': components['schemas']['RulesAlertRuleCreate'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RulesAlertRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getAlertRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: components['parameters']['RulesRuleId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The rule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RulesAlertRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteAlertRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: components['parameters']['RulesRuleId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateAlertRule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        ruleId: components['parameters']['RulesRuleId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "enabled": false
         *     }
         */
        'application/json': components['schemas']['RulesAlertRuleInput'] & unknown;
      };
    };
    responses: {
      /** @description The changed rule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RulesAlertRule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listOnCall: {
    parameters: {
      query?: {
        at?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One entry per schedule with someone on call, by schedule name */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: {
              schedule: {
                id: string;
                name: string;
                time_zone: string;
              };
              shift: components['schemas']['ScheduleShift'];
            }[];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listSchedules: {
    parameters: {
      query?: {
        at?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Schedules by name */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['Schedule'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ScheduleCreate'];
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Schedule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getSchedule: {
    parameters: {
      query?: {
        at?: string;
      };
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The schedule */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Schedule'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateSchedule: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ScheduleUpdate'];
      };
    };
    responses: {
      /** @description The schedule after the change */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Schedule'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getScheduleOnCall: {
    parameters: {
      query?: {
        at?: string;
      };
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The shift covering `at`; `shift` is null when nobody is on call then */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScheduleOnCall'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listScheduleShifts: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
      };
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The shifts in time order */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ScheduleShift'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listScheduleOverrides: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The overrides */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['ScheduleOverride'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createScheduleOverride: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          user_id: string;
          /** Format: date-time */
          starts_at: string;
          /** Format: date-time */
          ends_at: string;
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ScheduleOverride'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteScheduleOverride: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        scheduleId: string;
        overrideId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getCalendarFeed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        file: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The iCalendar document */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'text/calendar': string;
        };
      };
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listSsoProviders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Providers */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoProvider'][];
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  startSsoSignIn: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        slug: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Started */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** Format: uri */
            authorization_url: string;
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  completeSsoSignIn: {
    parameters: {
      query?: {
        code?: string;
        state?: string;
        iss?: string;
        session_state?: string;
        error?: string;
        error_description?: string;
        error_uri?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed in; the session cookie is set and the browser goes to the console */
      303: {
        headers: {
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getSsoSettings: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Settings */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  setSsoProvider: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          slug: string;
          display_name: string;
          discovery_url: string;
          client_id: string;
          client_secret?: string;
          groups_claim?: string;
          admin_groups?: string[];
          member_groups?: string[];
        };
      };
    };
    responses: {
      /** @description Saved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  clearSsoProvider: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  setSsoPolicy: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          required: boolean;
          break_glass_user_id?: string | null;
        };
      };
    };
    responses: {
      /** @description Saved */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SsoSettings'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  requestPasswordReset: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
        };
      };
    };
    responses: {
      /** @description Accepted; a mail follows if the email belongs to a person */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsersResetRequested'];
        };
      };
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  setPasswordWithLink: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          token: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description The password is set */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createUser: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          name?: string | null;
          /**
           * @default member
           * @enum {string}
           */
          role?: 'admin' | 'member';
          /**
           * @default human
           * @enum {string}
           */
          kind?: 'human' | 'service';
        };
      };
    };
    responses: {
      /** @description Created (and, for a person, invited) */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsersUser'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  resetUserPassword: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        userId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Reset forced; the link is on its way */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UsersPasswordReset'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listOutboundWebhooks: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Outbound webhooks */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['WebhookSettingsOutbound'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createOutboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "pager",
         *       "url": "https://hooks.example.net/ops",
         *       "triggers": [
         *         {
         *           "on": "alert.opened",
         *           "severities": [
         *             "critical"
         *           ]
         *         }
         *       ]
         *     }
         */
        'application/json': components['schemas']['WebhookSettingsOutboundInput'] & unknown;
      };
    };
    responses: {
      /** @description Created, with the secret */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsCreatedOutbound'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  getOutboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhook, with its last failure */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsOutbound'];
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  deleteOutboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content?: never;
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateOutboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "enabled": false
         *     }
         */
        'application/json': components['schemas']['WebhookSettingsOutboundPatch'] & unknown;
      };
    };
    responses: {
      /** @description The changed webhook */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsOutbound'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  rotateOutboundWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    requestBody?: {
      content: {
        /**
         * @example {
         *       "signing": "old_until_confirmed"
         *     }
         */
        'application/json': {
          signing?: components['schemas']['WebhookSettingsRotationSigning'];
        };
      };
    };
    responses: {
      /** @description The new secret, shown this once */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsSecret'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  confirmOutboundWebhookSecretRotation: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The current secret */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsSecret'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        status?: 'pending' | 'retrying' | 'delivered' | 'failed';
        limit?: number;
      };
      header?: never;
      path: {
        webhookId: components['parameters']['WebhookSettingsWebhookId'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deliveries */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['WebhookSettingsDelivery'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  redeliverDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Queued */
      202: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsDelivery'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listInboundWebhooks: {
    parameters: {
      query?: {
        kind?: components['schemas']['WebhookSettingsInboundKind'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Inbound webhooks */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['WebhookSettingsInbound'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  createInboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "name": "github deploys"
         *     }
         */
        'application/json': {
          name: string;
          kind?: components['schemas']['WebhookSettingsInboundKind'];
          require_standard_webhooks?: components['schemas']['WebhookSettingsRequireStandardWebhooks'];
          reject_repeated_signature?: components['schemas']['WebhookSettingsRejectRepeatedSignature'];
        };
      };
    };
    responses: {
      /** @description Created, with the secret */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsInboundWithSecret'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  updateInboundWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inboundWebhookId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "require_standard_webhooks": true
         *     }
         */
        'application/json': {
          name?: string;
          require_standard_webhooks?: components['schemas']['WebhookSettingsRequireStandardWebhooks'];
          reject_repeated_signature?: components['schemas']['WebhookSettingsRejectRepeatedSignature'];
        };
      };
    };
    responses: {
      /** @description The changed webhook */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsInbound'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  rotateInboundWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        inboundWebhookId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhook with its new secret, shown this once */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsInboundWithSecret'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  listIngestKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ingest keys */
      200: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            items: components['schemas']['WebhookSettingsIngestKey'][];
          };
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  rotateIngestKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new key */
      201: {
        headers: {
          'RateLimit-Limit': components['headers']['RateLimit-Limit'];
          'RateLimit-Remaining': components['headers']['RateLimit-Remaining'];
          'RateLimit-Reset': components['headers']['RateLimit-Reset'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookSettingsRotatedIngestKey'];
        };
      };
      401: components['responses']['Unauthorized'];
      403: components['responses']['Forbidden'];
      409: components['responses']['Conflict'];
      429: components['responses']['RateLimited'];
      500: components['responses']['InternalError'];
    };
  };
  outboundWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['OutboundWebhookDeliveryBody'];
      };
    };
    responses: {
      /** @description Accepted by the receiver (any 2xx) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone; the service stops retrying this delivery */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  outboundWebhookAlertGroupNotified: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['OutboundWebhookDeliveryBody'] & {
          payload?: components['schemas']['AlertGroupNotifiedPayload'];
        };
      };
    };
    responses: {
      /** @description Accepted by the receiver (any 2xx) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Gone; the service stops retrying this delivery */
      410: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
type WithRequired<T, K extends keyof T> = T & {
  [P in K]-?: T[P];
};
