package io.sluice.api.chat;

import java.util.Locale;
import java.util.UUID;

import io.sluice.api.admission.WaitOffer;
import io.sluice.api.auth.ApiClient;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code POST /api/v1/chat/{requestId}/offer {"choice": "fast" | "keep" | "defer"}}: the answer to a stream's
 * {@code offer} event. 204 when this instance held the offer, 202 when it was passed on to the other
 * instances, 404 when no offer of this client waits under that id (never made, already answered, or the
 * request was served meanwhile), 400 for an unknown choice.
 */
@RestController
public class FastOfferController {

    /** The body of a choice. */
    public record ChoiceRequest(String choice) {
    }

    private final FastOffers offers;

    public FastOfferController(FastOffers offers) {
        this.offers = offers;
    }

    @PostMapping("/api/v1/chat/{requestId}/offer")
    public ResponseEntity<Void> choose(ApiClient client,
            @PathVariable UUID requestId, @RequestBody ChoiceRequest body) {
        WaitOffer.Choice choice;
        try {
            choice = WaitOffer.Choice.valueOf(body.choice() == null ? "" : body.choice().trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "choice must be fast, keep or defer");
        }
        return switch (offers.choose(requestId, client.id(), choice)) {
            case TAKEN -> ResponseEntity.noContent().build();
            case FORWARDED -> ResponseEntity.accepted().build();
            case UNKNOWN -> throw new ResponseStatusException(HttpStatus.NOT_FOUND, "no offer waits under this request id");
        };
    }
}
