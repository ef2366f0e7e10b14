package io.sluice.api.chat;

import io.sluice.api.session.SessionStore;

/** Session: continue the client's own session (with its last turns) or start a new one. */
public final class SessionStep implements ChatStep {

    private final SessionStore sessions;

    public SessionStep(SessionStore sessions) {
        this.sessions = sessions;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        ctx.session(sessions.open(ctx.request().sessionId(), ctx.client().id(), ctx.request().userId()));
        next.proceed(ctx);
    }
}
