# Builds and runs Sluice (used by docker-compose.yml).
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -ntp -DskipTests package

FROM eclipse-temurin:25-jre
WORKDIR /app
COPY --from=build /src/app/target/sluice.jar /app/sluice.jar
COPY scripts/lib/java-defaults.sh /app/java-defaults.sh
EXPOSE 8080
# the footprint defaults scripts/run.sh uses (docs/capacity.md), then JAVA_OPTS (heap, GC, ...: a later flag wins);
# arguments after the image name go to Sluice (--sluice.x=y)
ENTRYPOINT ["sh", "-c", ". /app/java-defaults.sh && exec java $SLUICE_JAVA_DEFAULTS $JAVA_OPTS -jar /app/sluice.jar \"$@\"", "sluice"]
