package io.sluice.app.security;

import java.io.IOException;

import jakarta.servlet.ServletException;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

import io.sluice.web.http.UnreadBody;

/**
 * Closes the connection of a request refused without reading its body (marked with {@link UnreadBody})
 * instead of letting Tomcat read the rest of it first: a slow client's body would otherwise hold the
 * thread after the answer as long as it trickles in.
 */
class CloseUnreadValve extends ValveBase {

    CloseUnreadValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        getNext().invoke(request, response);
        if (request.getAttribute(UnreadBody.CLOSE_ATTRIBUTE) != null) {
            request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
            // the answer is already written: closing the connection is not an error to render a page for
            response.setErrorReported();
        }
    }
}
