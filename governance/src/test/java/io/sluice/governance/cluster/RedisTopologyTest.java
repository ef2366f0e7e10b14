package io.sluice.governance.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/** Spring Boot's and Sluice's Redis properties mapped onto Redisson's three modes, and the start-up errors. */
class RedisTopologyTest {

    private static RedisTopology resolve(Map<String, String> properties) {
        return RedisTopology.resolve(properties::get);
    }

    @Test
    void nothingConfiguredMeansEmbedded() {
        assertThat(resolve(Map.of())).isNull();
        assertThat(resolve(Map.of("sluice.redis.url", " "))).isNull();
    }

    @Test
    void aUrlIsOneNodeWithAclUserPasswordAndDatabase() {
        RedisTopology t = resolve(Map.of("spring.data.redis.url", "redis://app:s%40cret@cache:6380/3"));
        assertThat(t.mode()).isEqualTo(RedisTopology.Mode.SINGLE);
        assertThat(t.nodes()).containsExactly("redis://cache:6380");
        assertThat(t.username()).isEqualTo("app");
        assertThat(t.password()).isEqualTo("s@cret");
        assertThat(t.database()).isEqualTo(3);
        assertThat(t.describe()).doesNotContain("s@cret").contains("(auth)");
        Config config = t.toConfig(1000, 1000, 0);
        assertThat(config.isSingleConfig()).isTrue();
        assertThat(config.useSingleServer().getAddress()).isEqualTo("redis://cache:6380");
        assertThat(config.useSingleServer().getDatabase()).isEqualTo(3);
    }

    @Test
    void sluicePropertyWinsOverSpringsAndTlsComesFromRedissOrSslEnabled() {
        RedisTopology t = resolve(Map.of("sluice.redis.url", "rediss://:pw@a:6379", "spring.data.redis.url", "redis://b:1"));
        assertThat(t.nodes()).containsExactly("rediss://a:6379");
        assertThat(t.username()).isNull();
        assertThat(t.password()).isEqualTo("pw");
        RedisTopology ssl = resolve(Map.of("spring.data.redis.url", "redis://b:1", "spring.data.redis.ssl.enabled", "true"));
        assertThat(ssl.nodes()).containsExactly("rediss://b:1");
    }

    @Test
    void clusterNodesAreSeeds() {
        RedisTopology t = resolve(Map.of("spring.data.redis.cluster.nodes", "10.0.0.1:7000, 10.0.0.2:7001,10.0.0.3:7002",
            "spring.data.redis.password", "pw", "spring.data.redis.username", "app"));
        assertThat(t.mode()).isEqualTo(RedisTopology.Mode.CLUSTER);
        assertThat(t.nodes()).containsExactly("redis://10.0.0.1:7000", "redis://10.0.0.2:7001", "redis://10.0.0.3:7002");
        Config config = t.toConfig(1000, 1000, 0);
        assertThat(config.isClusterConfig()).isTrue();
        assertThat(config.useClusterServers().getNodeAddresses()).hasSize(3);
        assertThat(config.useClusterServers().getReadMode()).isEqualTo(ReadMode.MASTER);
        assertThat(config.useClusterServers().getPassword()).isEqualTo("pw");
        assertThat(config.useClusterServers().getUsername()).isEqualTo("app");
    }

    @Test
    void nodesGivenAsAYamlListAreReadToo() {
        RedisTopology t = resolve(Map.of("spring.data.redis.cluster.nodes[0]", "a:7000", "spring.data.redis.cluster.nodes[1]", "b:7001"));
        assertThat(t.nodes()).containsExactly("redis://a:7000", "redis://b:7001");
    }

    @Test
    void sentinelNeedsMasterAndNodesAndKeepsItsOwnPassword() {
        RedisTopology t = resolve(Map.of("spring.data.redis.sentinel.master", "mymaster",
            "spring.data.redis.sentinel.nodes", "s1:26379,s2:26379,s3:26379", "spring.data.redis.sentinel.password", "spw",
            "spring.data.redis.password", "dpw", "spring.data.redis.database", "2"));
        assertThat(t.mode()).isEqualTo(RedisTopology.Mode.SENTINEL);
        assertThat(t.sentinelMaster()).isEqualTo("mymaster");
        assertThat(t.database()).isEqualTo(2);
        Config config = t.toConfig(1000, 1000, 0);
        assertThat(config.isSentinelConfig()).isTrue();
        assertThat(config.useSentinelServers().getSentinelAddresses()).hasSize(3);
        assertThat(config.useSentinelServers().getSentinelPassword()).isEqualTo("spw");
        assertThat(config.useSentinelServers().getPassword()).isEqualTo("dpw");
        assertThat(config.useSentinelServers().getReadMode()).isEqualTo(ReadMode.MASTER);
    }

    @Test
    void contradictionsAndMalformedValuesFailWithTheProperty() {
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.cluster.nodes", "a:1", "sluice.redis.sentinel.master", "m",
            "sluice.redis.sentinel.nodes", "b:2"))).hasMessageContaining("configure one topology");
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.sentinel.master", "m")))
            .hasMessageContaining("sentinel.nodes is missing");
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.sentinel.nodes", "b:2")))
            .hasMessageContaining("sentinel.master is missing");
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.cluster.nodes", "a")))
            .hasMessageContaining("cluster.nodes must be host:port");
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.url", "http://u:topsecret@a:1")))
            .hasMessageContaining("redis:// or rediss://").hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.cluster.nodes", "a:1", "sluice.redis.database", "4")))
            .hasMessageContaining("only database 0");
        assertThatThrownBy(() -> resolve(Map.of("sluice.redis.url", "redis://a:1", "sluice.redis.database", "x")))
            .hasMessageContaining("database must be a number");
    }
}
