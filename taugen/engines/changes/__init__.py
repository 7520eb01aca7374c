"""Change computation (issue 33: the engine of `taugen diff` and `taugen report`): what a change
to an output tree does, in the scheduler's words, risks first.

sources    BASE / HEAD (folder, file, git:REV[:PATH]) -> files, never touching the working tree
objects    files -> objects by identity (cluster folder, apiVersion, kind, namespace, name)
normalize  an object -> a comparable shape (named list items as maps, order kept aside)
changes    paired objects -> field changes (deepdiff) and order changes
words      a change -> a headline with old → new
risks      a change -> its risk classes (rejected, capacity, placement, priority, source, held)
engine     two specs in, a DiffResult out; text, JSON and markdown are taugen.commands.diff
"""
