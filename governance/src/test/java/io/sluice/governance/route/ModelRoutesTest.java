package io.sluice.governance.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import io.sluice.governance.route.ModelRoutes.Model;

import org.junit.jupiter.api.Test;

class ModelRoutesTest {

    @Test
    void aChainFollowsFallbacksInOrder() {
        ModelRoutes routes = ModelRoutes.of(Map.of("primary", new Model("gpt-big", "light"), "light", new Model("gpt-small", null)));

        assertThat(routes.chain("primary")).containsExactly("primary", "light");
        assertThat(routes.chain("light")).containsExactly("light");
        assertThat(routes.providerModel("primary")).isEqualTo("gpt-big");
    }

    @Test
    void aCycleIsRefusedWithAMessageNamingIt() {
        Map<String, Model> models = new LinkedHashMap<>();
        models.put("A", new Model("a", "B"));
        models.put("B", new Model("b", "A"));

        assertThatThrownBy(() -> ModelRoutes.of(models))
            .isInstanceOf(ModelRoutes.InvalidRouteException.class)
            .hasMessageContaining("cycle: A → B → A");
    }

    @Test
    void aSelfLoopIsACycleToo() {
        assertThatThrownBy(() -> ModelRoutes.of(Map.of("A", new Model("a", "A"))))
            .hasMessageContaining("cycle: A → A");
    }

    @Test
    void aFallbackToAnUnknownModelIsRefusedNamingBoth() {
        assertThatThrownBy(() -> ModelRoutes.of(Map.of("A", new Model("a", "Z"))))
            .isInstanceOf(ModelRoutes.InvalidRouteException.class)
            .hasMessageContaining("model 'A' falls back to unknown model 'Z'");
    }
}
