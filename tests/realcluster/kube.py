"""A small client of the real API server over HTTPS with the admin client certificate (httpx):
discovery of each kind's resource, GET, create, server-side apply and delete (issue 31)."""

from __future__ import annotations

import json
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from tests.realcluster.pki import Pki

Object = dict[str, Any]
APPLY = "application/apply-patch+yaml"  # JSON is YAML: the body is the object as JSON
FIELD_MANAGER = "taugen"
FIXTURE = "realcluster-fixture"  # the field manager of what the fixture creates (Nodes, CRDs)


class ServerRefused(AssertionError):
    """The API server answered with an error status where the caller expected success."""


@dataclass(frozen=True)
class Resource:
    group_version: str
    plural: str
    namespaced: bool

    def path(self, namespace: str | None = None, name: str | None = None) -> str:
        base = "/api/v1" if self.group_version == "v1" else f"/apis/{self.group_version}"
        where = f"/namespaces/{namespace}" if self.namespaced and namespace else ""
        return f"{base}{where}/{self.plural}" + (f"/{name}" if name else "")


class Kube:
    def __init__(self, server: str, pki: Pki) -> None:
        context = ssl.create_default_context(cafile=str(pki.ca))
        context.load_cert_chain(pki.client_cert, pki.client_key)
        self.http = httpx.Client(base_url=server, verify=context, timeout=60)
        self._kinds: dict[tuple[str, str], Resource] = {}

    def close(self) -> None:
        self.http.close()

    def resource(self, api_version: str, kind: str) -> Resource:
        """The kind's resource, from discovery (asked again on a miss: a CRD may be new)."""
        if (api_version, kind) not in self._kinds:
            self._discover(api_version)
        found = self._kinds.get((api_version, kind))
        if found is None:
            raise ServerRefused(f"the API server serves no {kind} in {api_version}")
        return found

    def _discover(self, api_version: str) -> None:
        path = "/api/v1" if api_version == "v1" else f"/apis/{api_version}"
        for item in self.expect(self.http.get(path)).get("resources", []):
            if "/" not in item["name"]:
                self._kinds[(api_version, item["kind"])] = Resource(
                    api_version, item["name"], item["namespaced"]
                )

    def object_path(self, obj: Object) -> str:
        meta = obj["metadata"]
        resource = self.resource(obj["apiVersion"], obj["kind"])
        return resource.path(meta.get("namespace"), meta["name"])

    def get(self, obj: Object) -> Object | None:
        """The live object of `obj`'s identity, None when there is none."""
        answer = self.http.get(self.object_path(obj))
        return None if answer.status_code == 404 else self.expect(answer)

    def apply(self, obj: Object, *, dry_run: bool = False) -> httpx.Response:
        """Server-side apply as taugen's field manager, forcing conflicts (what Argo CD's and
        Flux's server-side apply send)."""
        params = {"fieldManager": FIELD_MANAGER, "force": "true"} | ({"dryRun": "All"} if dry_run else {})
        body = json.dumps(obj).encode()
        return self.http.patch(
            self.object_path(obj), params=params, content=body, headers={"Content-Type": APPLY}
        )

    def create(self, obj: Object, *, dry_run: bool = False) -> httpx.Response:
        meta = obj["metadata"]
        path = self.resource(obj["apiVersion"], obj["kind"]).path(meta.get("namespace"))
        params = {"fieldManager": FIXTURE} | ({"dryRun": "All"} if dry_run else {})
        return self.http.post(path, json=obj, params=params)

    def delete(self, obj: Object) -> httpx.Response:
        return self.http.delete(self.object_path(obj))

    @staticmethod
    def expect(answer: httpx.Response) -> Object:
        if not answer.is_success:
            raise ServerRefused(f"{answer.request.method} {answer.request.url.path}: {refusal(answer)}")
        data: Object = answer.json()
        return data


def refusal(answer: httpx.Response) -> str:
    """An error answer in one line: its status code and the server's message."""
    try:
        message = answer.json().get("message", answer.text)
    except ValueError:
        message = answer.text
    return f"{answer.status_code} {message}"


def wait_for(what: str, check: Callable[[], bool], timeout: float, alive: Callable[[], bool]) -> float:
    """Poll `check` until true (seconds taken); fail after `timeout` or when `alive` turns false."""
    start = time.monotonic()
    while not check():
        if not alive():
            raise AssertionError(f"{what}: a process of the control plane exited")
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{what}: not after {timeout:.0f} s")
        time.sleep(0.1)
    return time.monotonic() - start


def reaches(kube: Kube, obj: Object, kind: str) -> Callable[[], bool]:
    """For wait_for: the live object has condition `kind` True."""
    return lambda: condition(kube.get(obj), kind)


def deleted(kube: Kube, obj: Object) -> Callable[[], bool]:
    """For wait_for: the object is gone."""
    return lambda: kube.get(obj) is None


def condition(obj: Object | None, kind: str) -> bool:
    """The object's status has condition `kind` with status True."""
    conditions = ((obj or {}).get("status") or {}).get("conditions") or []
    return any(c.get("type") == kind and c.get("status") == "True" for c in conditions)
