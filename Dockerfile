# Builds and runs Sluice (used by docker-compose.yml).
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -ntp -DskipTests package

FROM eclipse-temurin:25-jre
WORKDIR /app
COPY --from=build /src/app/target/sluice.jar /app/sluice.jar
EXPOSE 8080
# JAVA_OPTS (heap, GC, ...) go before -jar; arguments after the image name go to Sluice (--sluice.x=y)
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /app/sluice.jar \"$@\"", "sluice"]
