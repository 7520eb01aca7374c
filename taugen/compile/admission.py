"""SPEC G3: a partial Node never creates a Node. A ValidatingAdmissionPolicy and its binding deny
CREATE of a Node that carries taugen's managed-by label, in every cluster's core.

Server-side apply of a partial Node whose machine has left the cluster (the inventory is hours
old; GPU pools autoscale) would create it: a ghost Node the cloud controller deletes and Argo CD
or Flux re-creates, forever. The kubelet registers a Node without that label, and an update of
an existing Node (the labels taugen sets) is not a CREATE: both pass.
"""

from __future__ import annotations

from taugen.compile.manifest import MANAGED_BY, Manifest, object_

API = "admissionregistration.k8s.io/v1"  # GA since Kubernetes 1.30
POLICY = "taugen-no-ghost-nodes"
ADMISSION_FILE = "admission.yaml"
# object is the Node being created; has() first, so a Node without labels passes
NOT_TAUGENS = (
    f"!has(object.metadata.labels) || !('{MANAGED_BY}' in object.metadata.labels) || "
    f"object.metadata.labels['{MANAGED_BY}'] != 'taugen'"
)
MESSAGE = (
    "'Node ' + object.metadata.name + ' is not registered: taugen labels existing Nodes only "
    "and never creates one (SPEC G3); the inventory lists a machine that left the cluster: "
    "refresh it and run taugen build'"
)


def admission_policy() -> list[Manifest]:
    """The policy (CREATE of nodes only: an UPDATE is never evaluated) and its Deny binding."""
    rules = [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["nodes"]}]
    policy = object_(
        API,
        "ValidatingAdmissionPolicy",
        POLICY,
        spec={
            "failurePolicy": "Fail",
            "matchConstraints": {"resourceRules": rules},
            "validations": [{"expression": NOT_TAUGENS, "messageExpression": MESSAGE, "reason": "Forbidden"}],
        },
    )
    binding = object_(
        API,
        "ValidatingAdmissionPolicyBinding",
        POLICY,
        spec={"policyName": POLICY, "validationActions": ["Deny"]},
    )
    return [Manifest(ADMISSION_FILE, policy), Manifest(ADMISSION_FILE, binding)]
