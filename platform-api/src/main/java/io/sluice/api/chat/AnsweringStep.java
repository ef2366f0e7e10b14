package io.sluice.api.chat;

/** Produces the answer to one message; runs while the request holds an interactive permit. */
public interface AnsweringStep {

    Answer answer(String message);
}
