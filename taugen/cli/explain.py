"""taugen explain node|class|tenant: why a fleet looks as it does (issue 11)."""

from __future__ import annotations

from pathlib import Path

import click

from taugen.cli.guard import EXIT_OK, guarded
from taugen.cli.options import cluster_option, complete_gpu_classes, config_option, output_option
from taugen.cli.output import print_data

CLUSTER_HELP = "The cluster (needed when the project has several)."


@click.command("node")
@click.argument("name")
@config_option("Project file.")
@cluster_option(CLUSTER_HELP)
@output_option("text", "json")
@guarded
def explain_node_command(name: str, config: Path, cluster: str | None, fmt: str) -> int:
    """Every label node NAME gets, which rule or provider label set it, and what it counts toward."""
    from taugen.commands.explain import render as explain_render
    from taugen.commands.explain.node import explain_node
    from taugen.context.session import load_view

    found = explain_node(load_view(config, cluster), name)
    print_data(fmt, explain_render.node_json, explain_render.node_text, found)
    return EXIT_OK


@click.command("class")
@click.argument("gpu_class", metavar="CLASS", shell_complete=complete_gpu_classes)
@config_option("Project file.")
@cluster_option(CLUSTER_HELP)
@output_option("text", "json")
@guarded
def explain_class_command(gpu_class: str, config: Path, cluster: str | None, fmt: str) -> int:
    """The nodes, GPUs, Ready slots, quota and domains of gpu-class CLASS."""
    from taugen.commands.explain import render as explain_render
    from taugen.commands.explain.gpu_class import explain_class
    from taugen.context.session import load_view

    found = explain_class(load_view(config, cluster), gpu_class)
    print_data(fmt, explain_render.class_json, explain_render.class_text, found)
    return EXIT_OK


@click.command("tenant")
@click.argument("namespace")
@config_option("Project file.")
@cluster_option(CLUSTER_HELP)
@output_option("text", "json")
@guarded
def explain_tenant_command(namespace: str, config: Path, cluster: str | None, fmt: str) -> int:
    """How tenant NAMESPACE's guaranteed, borrowable and shared GPUs were derived (SPEC §10)."""
    from taugen.commands.explain.tenant import explain_tenant
    from taugen.commands.explain.tenant_render import tenant_json, tenant_text
    from taugen.context.session import load_view

    found = explain_tenant(load_view(config, cluster), namespace)
    print_data(fmt, tenant_json, tenant_text, found)
    return EXIT_OK


@click.group("explain", commands=[explain_node_command, explain_class_command, explain_tenant_command])
def explain_group() -> None:
    """Why a node has its labels (with provenance), what a gpu class holds, and a tenant's quota."""
