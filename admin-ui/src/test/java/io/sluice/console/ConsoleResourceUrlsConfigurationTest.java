package io.sluice.console;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Resource URL encoding wraps the console's pages, never a machine endpoint's call. */
class ConsoleResourceUrlsConfigurationTest {

    private final ConsoleResourceUrlsConfiguration.ConsolePagesOnly filter =
        new ConsoleResourceUrlsConfiguration.ConsolePagesOnly();

    @Test
    void machineEndpointsPassThroughUnwrapped() throws Exception {
        for (String path : new String[] {"/v1/chat/completions", "/api/v1/chat", "/actuator/health"}) {
            MockHttpServletRequest request = new MockHttpServletRequest("POST", path);
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();
            filter.doFilter(request, response, chain);
            assertThat(chain.getRequest()).as(path).isSameAs(request);
            assertThat(chain.getResponse()).as(path).isSameAs(response);
        }
    }

    @Test
    void consolePagesAreWrappedForTheirResourceLinks() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/dashboard");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, response, chain);
        assertThat(chain.getRequest()).isNotSameAs(request);
        assertThat(chain.getResponse()).isNotSameAs(response);
    }
}
