"""`taugen validate --server`: the tree as a server-side dry run on the user's own cluster (issue 31).

Each object is sent as what Argo CD and Flux send, a server-side apply (field manager `taugen`,
conflicts forced), with `dryRun=All` and `fieldValidation=Strict` (as `kubectl apply` sends it;
an apply refuses a field its schema lacks either way, where a plain create drops it in silence):
the API server runs its schemas, CEL rules, admission plugins, policies and webhooks, and
persists nothing. The kubeconfig is the user's own
(`--kubeconfig`, else `$KUBECONFIG` or `~/.kube/config`; `--context`, else its current
context), read by the Kubernetes client, so exec plugins (EKS, AKS, GKE) work as with kubectl.
A refusal is a finding (rule `server`) at the field the server names when the tree holds it,
else at the object. Nothing but these dry runs, and the discovery that finds each kind's
resource, is sent.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from taugen.core.errors import TaugenError
from taugen.validate.engine import Report, Result
from taugen.validate.findings import Finding, finding
from taugen.validate.resources import Resource

FIELD_MANAGER = "taugen"
HINT = "the cluster's API server refuses it: fix the input or the cluster (a missing CRD or namespace)"
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class ServerUnreachable(TaugenError):
    """The kubeconfig cannot be read, or the cluster does not answer."""


@dataclass(frozen=True)
class ServerTarget:
    kubeconfig: Path | None = None  # None: $KUBECONFIG, else ~/.kube/config
    context: str | None = None  # None: the kubeconfig's current context


def dry_run(report: Report, target: ServerTarget) -> tuple[Report, str]:
    """The report with the server's refusals merged in, and one line saying what was sent where.
    The client's discovery cache lives in a scratch folder for this run only."""
    with tempfile.TemporaryDirectory(prefix="taugen-server-") as scratch:
        client, where = _client(target, Path(scratch) / "discovery.json")
        results = [_checked(client, result) for result in report.results]
    refused = sum(any(f.problem.rule == "server" for f in r.findings) for r in results)
    sent = sum(1 for r in report.results if isinstance(r.resource.obj, dict))
    note = f"server: {sent} objects sent as a dry run (dryRun=All) to {where}: {refused} refused"
    return replace(report, results=results), note


def _client(target: ServerTarget, cache_file: Path) -> tuple[Any, str]:
    try:
        from kubernetes import config, dynamic  # a second of imports, paid only with --server
        from kubernetes.config.config_exception import ConfigException
    except ImportError:
        raise ServerUnreachable(
            "--server needs the Kubernetes client: pip install 'taugen[server]'"
        ) from None

    make: Any = config.new_client_from_config  # the client has no annotations
    dynamic_client: Any = dynamic.DynamicClient
    try:
        api = make(config_file=str(target.kubeconfig) if target.kubeconfig else None, context=target.context)
    except (ConfigException, OSError, TypeError) as err:
        raise ServerUnreachable(f"--server: cannot use the kubeconfig: {err}") from None
    host = api.configuration.host
    try:
        client = dynamic_client(api, cache_file=str(cache_file))
    except Exception as err:  # urllib3 and the client raise many kinds: every one means "not reachable"
        raise ServerUnreachable(f"--server: the cluster at {host} does not answer: {err}") from None
    return client, f"{target.context or 'the current context'} ({host})"


def _checked(client: Any, result: Result) -> Result:
    found = list(_refusals(client, result.resource))
    if not found:
        return result
    return replace(result, status="invalid", findings=sorted([*result.findings, *found]))


def _refusals(client: Any, resource: Resource) -> Iterator[Finding]:
    from kubernetes.client.exceptions import ApiException
    from kubernetes.dynamic.exceptions import DynamicApiError, ResourceNotFoundError
    from urllib3.exceptions import HTTPError

    obj = resource.obj
    if not isinstance(obj, dict):
        return
    api_version, kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    try:
        api = client.resources.get(api_version=api_version, kind=kind)
    except ResourceNotFoundError:
        message = f"the cluster serves no {kind} in {api_version}"
        yield finding(resource, ["kind"], "server", message, "install its CRD (and the project's release)")
        return
    namespace = (obj.get("metadata") or {}).get("namespace")
    try:
        client.server_side_apply(
            api,
            body=obj,
            namespace=namespace,
            field_manager=FIELD_MANAGER,
            force_conflicts=True,
            dry_run="All",
            query_params=[("fieldValidation", "Strict")],  # kubectl's default: an unknown field is refused
        )
    except (DynamicApiError, ApiException) as err:
        yield from _findings(resource, _status(err))
    except HTTPError as err:
        raise ServerUnreachable(f"--server: the cluster stopped answering: {err}") from None


def _status(err: Exception) -> dict[str, Any]:
    body = getattr(err, "body", None) or getattr(getattr(err, "original", None), "body", None)
    try:
        status = json.loads(body) if body else {}
    except (TypeError, ValueError):
        status = {}
    if not isinstance(status, dict) or not status.get("message"):
        return {"message": f"{getattr(err, 'status', '?')} {getattr(err, 'reason', err)}"}
    return status


def _findings(resource: Resource, status: dict[str, Any]) -> Iterator[Finding]:
    """One finding per cause the server names (at its field), else one for the whole refusal."""
    causes = [c for c in (status.get("details") or {}).get("causes") or [] if isinstance(c, dict)]
    if not causes:
        yield finding(resource, [], "server", str(status["message"]), HINT)
        return
    for cause in causes:
        field = str(cause.get("field", ""))
        message = f"{field}: {cause.get('message', '')}" if field else str(cause.get("message", ""))
        yield finding(resource, field_path(field), "server", message, HINT)


def field_path(field: str) -> list[str | int]:
    """The server's field path (`spec.resourceGroups[0].flavors[1].name`) as a loc."""
    return [int(index) if index else name for name, index in _STEP.findall(field)]
