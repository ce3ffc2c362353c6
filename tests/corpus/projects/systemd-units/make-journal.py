#!/usr/bin/env python3
"""Write the journal export stream of one made-up morning on host web-01.

regen.sh pipes it into systemd-journal-remote, which writes a real journal file
(journal/web-01.journal) for journalctl --file/--directory to read. The entries
are invented (like the env sample's environment); their layout is what journald
records: systemd's own messages about the units, and the services' log lines.
"""
import sys

T0 = 1735812000 * 1000000  # 2025-01-02 10:00:00 UTC, in microseconds
BOOT = "5d2c1f0e9b8a47c6a1e3f0d2c4b6a8e1"
cursor = 0
out = sys.stdout


def entry(sec, ident, pid, prio, msg, unit=None):
    global cursor
    cursor += 1
    fields = [
        ("__CURSOR", "s=7a1c;i=%x" % cursor),
        ("__REALTIME_TIMESTAMP", str(T0 + int(sec * 1000000))),
        ("__MONOTONIC_TIMESTAMP", str(int((sec + 3.5) * 1000000))),
        ("_BOOT_ID", BOOT),
        ("_HOSTNAME", "web-01"),
        ("SYSLOG_IDENTIFIER", ident),
        ("_PID", str(pid)),
        ("PRIORITY", str(prio)),
        ("MESSAGE", msg),
    ]
    if unit:
        fields.append(("_SYSTEMD_UNIT", unit))
        if ident == "systemd":
            fields.append(("UNIT", unit))
    for k, v in fields:
        out.write("%s=%s\n" % (k, v))
    out.write("\n")


API = "inventory-api.service"
WORKER = "inventory-worker.service"

# the API starts and serves requests
entry(0.0, "systemd", 1, 6, "Starting inventory-api.service - Inventory API...", API)
entry(0.4, "inventory-api", 812, 6, "INFO  starting inventory-api 1.4.2 on :8000", API)
entry(0.6, "inventory-api", 812, 6, "INFO  connected to postgres://db:5432/inventory (pool=10)", API)
entry(0.7, "systemd", 1, 6, "Started inventory-api.service - Inventory API.", API)
paths = ["/api/items", "/api/items/42", "/api/stock", "/healthz", "/api/items?page=2"]
sec = 1.0
for i in range(60):
    sec += 2.5
    p = paths[i % len(paths)]
    entry(sec, "inventory-api", 812, 6,
          "INFO  GET %s 200 %dms" % (p, 3 + (i * 7) % 40), API)
    if i == 31:
        entry(sec + 0.2, "inventory-api", 812, 4,
              "WARN  slow query: SELECT * FROM stock WHERE sku = $1 took 2140ms", API)
    if i == 47:
        entry(sec + 0.1, "inventory-api", 812, 3,
              "ERROR POST /api/orders 500: KeyError: 'warehouse_id' (orders.py:88)", API)

# the worker crash-loops: a missing environment variable
wpid = 901
for attempt in range(1, 6):
    t = 5.0 + attempt * 11.0
    entry(t, "systemd", 1, 6, "Starting inventory-worker.service - Inventory background worker...", WORKER)
    entry(t + 0.1, "systemd", 1, 6, "Started inventory-worker.service - Inventory background worker.", WORKER)
    entry(t + 0.5, "inventory-worker", wpid, 6, "INFO  worker 0.9.1 polling queue 'default'", WORKER)
    entry(t + 0.6, "inventory-worker", wpid, 3, "Traceback (most recent call last):", WORKER)
    entry(t + 0.6, "inventory-worker", wpid, 3, '  File "/opt/inventory/worker.py", line 31, in <module>', WORKER)
    entry(t + 0.6, "inventory-worker", wpid, 3, '    broker = os.environ["BROKER_URL"]', WORKER)
    entry(t + 0.6, "inventory-worker", wpid, 3, "KeyError: 'BROKER_URL'", WORKER)
    entry(t + 0.7, "systemd", 1, 5,
          "inventory-worker.service: Main process exited, code=exited, status=1/FAILURE", WORKER)
    entry(t + 0.7, "systemd", 1, 4, "inventory-worker.service: Failed with result 'exit-code'.", WORKER)
    if attempt < 5:
        entry(t + 10.7, "systemd", 1, 6,
              "inventory-worker.service: Scheduled restart job, restart counter is at %d." % attempt, WORKER)
        entry(t + 10.7, "systemd", 1, 6, "Stopped inventory-worker.service - Inventory background worker.", WORKER)
    wpid += 17
entry(66.0, "systemd", 1, 4, "inventory-worker.service: Start request repeated too quickly.", WORKER)
entry(66.0, "systemd", 1, 4, "inventory-worker.service: Failed with result 'exit-code'.", WORKER)
entry(66.0, "systemd", 1, 3, "Failed to start inventory-worker.service - Inventory background worker.", WORKER)

# cron noise from another unit
for i in range(8):
    entry(20.0 + i * 20, "CRON", 1200 + i, 6, "(root) CMD (/usr/local/bin/rotate-tmp >/dev/null 2>&1)", "cron.service")
