# tests for backend-sim/src/api
