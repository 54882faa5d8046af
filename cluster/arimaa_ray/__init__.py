"""The Ray side of `arimaa match --cluster ray`: a bridge that the match
runner starts (`python -m arimaa_ray`) and speaks JSON lines with, and the
task that plays one game pair on a worker node with the `arimaa` binary."""
