// Translation unit that builds the layers' shared precompiled header (src/CMakeLists.txt).
