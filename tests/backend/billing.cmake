# tests for backend-sim/src/billing
