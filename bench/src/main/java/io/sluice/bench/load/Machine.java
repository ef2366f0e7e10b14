package io.sluice.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

/** What the report says about the machine and the services, read where they are. */
final class Machine {

    private Machine() {
    }

    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split("\\s+");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The local redis-server serving {@code url} (found by its port on the command line), or null. */
    static ProcessHandle redisProcess(String url) {
        String port = ":" + URI.create(url).getPort();
        // redis-server rewrites its title ("redis-server 127.0.0.1:PORT"): read as /proc shows it
        return processWithArguments(args -> {
            String title = String.join(" ", args);
            return title.startsWith("redis-server") && title.contains(port);
        });
    }

    /** The postmaster serving {@code jdbcUrl}'s port (started with {@code -p PORT}), or null. */
    static ProcessHandle postgresProcess(String jdbcUrl) {
        String port = Integer.toString(URI.create(jdbcUrl.replaceFirst("^jdbc:", "")).getPort());
        return processWithArguments(args -> {
            if (args.length == 0 || !args[0].endsWith("/postgres")) {
                return false;
            }
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals("-p") && args[i + 1].equals(port)) {
                    return true;
                }
            }
            return false;
        });
    }

    /** The first process whose command line ({@code /proc/PID/cmdline}, split at its NULs) matches, or null. */
    private static ProcessHandle processWithArguments(java.util.function.Predicate<String[]> matches) {
        return ProcessHandle.allProcesses().filter(p -> {
            try {
                return matches.test(Files.readString(Path.of("/proc/" + p.pid() + "/cmdline")).split("\0"));
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }).findFirst().orElse(null);
    }

    /** A process's resident set in MiB (/proc/PID/status VmRSS), NaN when unreadable. */
    static double rssMb(ProcessHandle process) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through
        }
        return Double.NaN;
    }

    static String memory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("\\D+", ""));
                    return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through
        }
        return "unknown";
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return System.getProperty("os.arch");
    }

    static String java() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
    }

    /** Spring Boot (from its jar) and Spring AI (from the build's pom.xml, run from the repository root). */
    static String frameworks() {
        String ai = "unknown";
        try {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<spring-ai.version>([^<]+)<")
                .matcher(Files.readString(Path.of("pom.xml")));
            if (m.find()) {
                ai = m.group(1);
            }
        } catch (IOException e) {
            // not run from the repository root
        }
        return "Spring Boot " + org.springframework.boot.SpringBootVersion.getVersion() + ", Spring AI " + ai;
    }

    static String postgres(String jdbcUrl) {
        try (Connection c = DriverManager.getConnection(jdbcUrl); ResultSet rs = c.createStatement().executeQuery(
                "select current_setting('server_version'), (select extversion from pg_extension where extname = 'vector')")) {
            rs.next();
            return "PostgreSQL " + rs.getString(1) + ", pgvector " + rs.getString(2);
        } catch (Exception e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    static String redis(String url) {
        URI uri = URI.create(url);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 6379)) {
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            out.write("INFO server\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            int n = in.read(buffer);
            String text = new String(buffer, 0, Math.max(0, n), StandardCharsets.US_ASCII);
            int at = text.indexOf("redis_version:");
            return at < 0 ? "Redis (version not read)" : "Redis " + text.substring(at + 14, text.indexOf('\r', at));
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
