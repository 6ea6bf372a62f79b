// Empty: the module only declares libFuzzer's driver entry (include/CFuzzDriver.h).
