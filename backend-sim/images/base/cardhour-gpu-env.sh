# The lent cards' variables for login shells (the entrypoint writes them at start).
if [ -r /run/cardhour/gpu.env ]; then
    set -a
    . /run/cardhour/gpu.env
    set +a
fi
