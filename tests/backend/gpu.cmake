# tests for backend-sim/src/gpu (simulated cards, telemetry) and the cgroup reader behind them
cardhour_add_test(tst_simulatedgpu
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_simulatedgpu.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_cgroupstats
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_cgroupstats.cpp
    LIBS cardhour_sim_lib)
cardhour_add_test(tst_nvidiagpus
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/gpu/tst_nvidiagpus.cpp
    LIBS cardhour_sim_lib)
