"""The load mix of bench/load_run.py: what a deployed agent serves (context queries, evidence,
chat turns) against one agent, through one API process.

Environment: LOAD_AGENT (agent id), LOAD_BELIEFS (comma-separated belief ids evidence goes to).
"""

from __future__ import annotations

import itertools
import os
import random

from locust import HttpUser, between, task

AGENT = os.environ["LOAD_AGENT"]
BELIEFS = os.environ["LOAD_BELIEFS"].split(",")
QUERIES = [
    "revenue recognition for multi-year contracts",
    "who approves wire transfers above the limit",
    "late invoices from the logistics vendor",
    "lease accounting under the new standard",
    "month-end close checklist and accrual reversals",
    "inventory write-downs and obsolete stock",
    "expense reports without receipts",
    "intercompany reconciliation differences",
]
MESSAGES = [
    "Can we book this consulting revenue upfront?",
    "The vendor sent the invoice twice, what should I do?",
    "Should accruals be reversed on the first day of the month?",
    "Is a signed contract enough to recognise the revenue?",
    "Please check whether the lease should be capitalised.",
]
_sessions = itertools.count()


class AgentUser(HttpUser):
    """One client of the agent: mostly reads context, sometimes adds evidence or chats. (Task
    names must not shadow locust's own User methods, such as context().)"""

    wait_time = between(0.0, 0.2)

    def on_start(self) -> None:
        self.session = f"load-{os.getpid()}-{next(_sessions)}"

    @task(6)
    def query_context(self) -> None:
        self.client.get(
            f"/v1/agents/{AGENT}/context",
            params={"q": random.choice(QUERIES), "k": 10},
            name="GET context",
        )

    @task(3)
    def add_evidence(self) -> None:
        with self.client.post(
            f"/v1/agents/{AGENT}/beliefs/{random.choice(BELIEFS)}/evidence",
            json={
                "text": f"Observation {random.randrange(10**6)} about this practice.",
                "stance": random.choice(["reinforcing", "contradicting"]),
                "confidence": 0.2,
            },
            name="POST evidence",
            catch_response=True,
        ) as response:
            # 409: the belief was revised away by earlier contradicting evidence (a valid answer).
            if response.status_code in (200, 201, 409):
                response.success()

    @task(1)
    def chat_turn(self) -> None:
        self.client.post(
            f"/v1/agents/{AGENT}/chat",
            json={"message": random.choice(MESSAGES), "session": self.session},
            name="POST chat",
        )
