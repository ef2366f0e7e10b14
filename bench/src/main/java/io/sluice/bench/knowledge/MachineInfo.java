package io.sluice.bench.knowledge;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the figures were measured on: CPU, memory, JVM, and how busy the machine was. */
final class MachineInfo {

    private MachineInfo() {
    }

    static String describe() {
        Runtime rt = Runtime.getRuntime();
        return String.format("machine: %s, %d CPUs visible to the JVM, %s RAM; Java %s (%s), max heap %d MB",
            cpuModel(), rt.availableProcessors(), memTotal(), System.getProperty("java.version"),
            System.getProperty("java.vm.name"), rt.maxMemory() >> 20);
    }

    /** 1, 5 and 15 minute load averages ({@code /proc/loadavg}), or the JVM's 1-minute figure. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static String cpuModel() {
        return procLine("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch"));
    }

    private static String memTotal() {
        return procLine("/proc/meminfo", "MemTotal").map(v -> (Long.parseLong(v.replaceAll("\\D", "")) >> 20) + " GB")
            .orElse("?");
    }

    private static java.util.Optional<String> procLine(String file, String key) {
        try {
            List<String> lines = Files.readAllLines(Path.of(file));
            return lines.stream().filter(l -> l.startsWith(key)).findFirst()
                .map(l -> l.substring(l.indexOf(':') + 1).trim());
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }
}
