"""Timeouts, cancellation from another thread, Ctrl-C, and the GIL released
while gsparql works (SLOW_QUERY runs for seconds on the chain)."""
import os
import signal
import threading
import time

import pytest

import gsparql
from conftest import SLOW_QUERY


def test_timeout(chain_db):
    start = time.monotonic()
    with pytest.raises(gsparql.QueryTimedOut, match="timed out after 0.3 s"):
        chain_db.query(SLOW_QUERY, timeout=0.3)
    assert time.monotonic() - start < 2.5


def test_cancel_from_another_thread_stops_a_running_query(chain_db):
    cancel = gsparql.Cancel()
    assert not cancel.cancelled
    timer = threading.Timer(0.3, cancel.cancel)
    timer.start()
    start = time.monotonic()
    with pytest.raises(gsparql.QueryCancelled, match="query cancelled"):
        chain_db.query(SLOW_QUERY, cancel=cancel)
    elapsed = time.monotonic() - start
    timer.join()
    assert cancel.cancelled and repr(cancel) == "<gsparql.Cancel cancelled>"
    assert 0.25 < elapsed < 2.5


def test_a_cancelled_cancel_stops_later_calls_at_once(chain_db):
    cancel = gsparql.Cancel()
    cancel.cancel()
    with pytest.raises(gsparql.QueryCancelled):
        chain_db.query(SLOW_QUERY, cancel=cancel)
    with pytest.raises(gsparql.QueryCancelled):
        chain_db.update("DELETE WHERE { ?s <http://x/none> ?o }", cancel=cancel)
    assert chain_db.query("ASK { ?s ?p ?o }", cancel=gsparql.Cancel()) is True


def test_ctrl_c_interrupts_a_running_query(chain_db):
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        chain_db.query(SLOW_QUERY)
    timer.join()
    assert time.monotonic() - start < 2.5
    assert chain_db.query("ASK { ?s ?p ?o }") is True  # the database is fine after it


def test_another_thread_runs_python_while_a_query_runs(chain_db):
    progress = {"count": 0, "stop": False}

    def count():
        while not progress["stop"]:
            progress["count"] += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    before = progress["count"]
    with pytest.raises(gsparql.QueryTimedOut):
        chain_db.query(SLOW_QUERY, timeout=0.5)
    during = progress["count"] - before
    progress["stop"] = True
    counter.join()
    # Holding the GIL for 0.5 s would leave the counter a few switch
    # intervals (5 ms each) of counting; released, it counts all along.
    assert during > 100_000


def test_threads_query_one_database_at_once(db):
    query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    results = []

    def run():
        results.extend(db.query(query, terms="python")[0]["n"] for _ in range(20))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [26] * 80
